// The Node entries are minified, and a minified file is one line: Node prints the whole source
// line of an uncaught error's frame (and a caret under its column), so a merchant's first
// mistake, a missing option say, printed 51 kB of code before the message. This breaks each
// built file's lines at the first place after LINE_LIMIT characters where a line break is only
// whitespace: after a statement, a class member, a property, an element, an argument, a
// declarator, an import or export specifier or an expression between commas.
// A string is never broken (the built-file manifest stays one 6 kB line; it throws nothing).
// One byte a line: 1.2 kB for the Node entries at 200 (1.8 kB at 120, 0.8 kB at 300). The
// minifier (Oxc) has no such option; keeping its whitespace cost 55 kB, and printing the code
// again with esbuild's lineLimit 12 kB, for esbuild's own printing of Oxc's.
import { parseAst } from 'vite';

/** About this many characters a line: the frame Node prints stays readable in a terminal. */
export const LINE_LIMIT = 200;

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/** Lists whose items may each end a line: a break between two of them changes no token. */
const LISTS: Record<string, string> = {
  Program: 'body',
  BlockStatement: 'body',
  StaticBlock: 'body',
  SwitchCase: 'consequent',
  ClassBody: 'body',
  ObjectExpression: 'properties',
  ArrayExpression: 'elements',
  SequenceExpression: 'expressions',
  VariableDeclaration: 'declarations',
  CallExpression: 'arguments',
  NewExpression: 'arguments',
  ImportDeclaration: 'specifiers',
  ExportNamedDeclaration: 'specifiers',
};

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** Every offset where a line break is whitespace, in order. */
function breaks(program: Node): number[] {
  const found: number[] = [];
  const visit = (node: Node): void => {
    const list = LISTS[node.type];
    for (const [key, value] of Object.entries(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (!isNode(child)) continue;
        if (key === list) found.push(child.end);
        visit(child);
      }
    }
  };
  visit(program);
  return found.sort((a, b) => a - b);
}

/** The program's tree without its offsets, to compare two printings of the same code. */
function shape(code: string): string {
  return JSON.stringify(parseAst(code), (key, value: unknown) => {
    if (key === 'start' || key === 'end' || key === 'range') return undefined;
    return typeof value === 'bigint' ? `${value}n` : value;
  });
}

/**
 * `code` with a line break at the first place after every LINE_LIMIT characters of a line. Throws
 * if the result parses to another program than `code`: it is never shipped changed.
 */
export function shortLines(code: string, limit = LINE_LIMIT): string {
  let out = '';
  let from = 0;
  let lineStart = 0;
  let read = 0;
  for (const end of breaks(parseAst(code) as unknown as Node)) {
    // After the comma or semicolon that follows an item, if one does: no line begins with one.
    const at = code[end] === ',' || code[end] === ';' ? end + 1 : end;
    // The line's start moves on at every line break the code has already (in a template string).
    for (; read < at; read += 1) if (code[read] === '\n') lineStart = read + 1;
    if (at <= from || at - lineStart < limit || code[at] === '\n') continue;
    out += `${code.slice(from, at)}\n`;
    from = at;
    lineStart = at;
  }
  out += code.slice(from);
  if (shape(out) !== shape(code)) throw new Error('shortLines: the broken lines parse differently');
  return out;
}
