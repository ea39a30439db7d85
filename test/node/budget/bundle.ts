// Reads a built bundle the way the checks over dist/ need it: parsed once with
// acorn, every property name (member accesses, object keys, class members) and
// every string the code holds.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Node, parse } from 'acorn';
import { full } from 'acorn-walk';
import { ESM, IIFE, PARTS_DIR } from '../../../bench/measure.ts';

export interface Bundle {
  file: string;
  code: string;
  ast: Node;
  /** Every name used as a property: `a.name`, `{ name: 1 }`, `class { name() {} }`. */
  properties: Set<string>;
  /** Every string literal and template text. */
  strings: Set<string>;
}

export const BUNDLES = [IIFE, ESM] as const;

/**
 * The parts both self-contained bundles load from beside them (dist/parts/): their code
 * runs in the same browsers, and uses names the bundle hands them. Empty before a build.
 */
export function partFiles(): string[] {
  if (!existsSync(PARTS_DIR)) return [];
  return readdirSync(PARTS_DIR)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => join(PARTS_DIR, name));
}

/** The smallest view of ESTree nodes that this file reads. */
interface Named {
  type: string;
  name?: string;
  value?: unknown;
}
interface Keyed extends Node {
  computed?: boolean;
  key?: Named;
  property?: Named;
  value?: unknown;
  cooked?: string | null;
}

export function parseBundle(code: string, file: string): Bundle {
  const ast = parse(code, {
    ecmaVersion: 'latest',
    sourceType: file.endsWith('.iife.js') ? 'script' : 'module',
  });
  const properties = new Set<string>();
  const strings = new Set<string>();
  const nameOf = (key: Named | undefined): string | undefined =>
    key?.type === 'Identifier' || key?.type === 'PrivateIdentifier'
      ? key.name
      : key?.type === 'Literal' && typeof key.value === 'string'
        ? key.value
        : undefined;
  full(ast, (node: Keyed) => {
    switch (node.type) {
      case 'MemberExpression': {
        const name = node.computed ? undefined : nameOf(node.property);
        if (name !== undefined) properties.add(name);
        break;
      }
      case 'Property':
      case 'MethodDefinition':
      case 'PropertyDefinition': {
        const name = node.computed ? undefined : nameOf(node.key);
        if (name !== undefined) properties.add(name);
        break;
      }
      case 'Literal':
        if (typeof node.value === 'string') strings.add(node.value);
        break;
      case 'TemplateElement': {
        const { cooked } = node.value as { cooked: string | null };
        if (cooked) strings.add(cooked);
        break;
      }
    }
  });
  return { file, code, ast, properties, strings };
}

export function readBundle(file: string): Bundle {
  return parseBundle(readFileSync(file, 'utf8'), file);
}
