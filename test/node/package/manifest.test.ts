// dist/custom-elements.json, the manifest editors, Storybook and framework
// tooling read (package.json `customElements`), checked against the element
// itself: every event the README lists, with its detail type, every attribute and
// property, and every CSS part and custom property the element really has, each
// described. The build writes it from the class's JSDoc; when this fails, the
// JSDoc in src/widget/payment-widget.ts is what to fix.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import type { ChallengeMode } from '../../../src/next-step/types.ts';
import { PaymentWidget } from '../../../src/widget/payment-widget.ts';
import { WIDGET_EVENTS } from '../../shared/events.ts';

const ROOT = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const PACKAGE = JSON.parse(read('package.json')) as {
  customElements: string;
  exports: { '.': { import: string } };
};

interface Described {
  name: string;
  description?: string;
  type?: { text: string };
}
interface Attribute extends Described {
  fieldName?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  privacy?: string;
  attribute?: string;
}
interface Declaration {
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes: Attribute[];
  members: Member[];
  events: Described[];
  cssParts: Described[];
  cssProperties: Described[];
}
interface Manifest {
  schemaVersion: string;
  modules: {
    path: string;
    declarations: Declaration[];
    exports: { kind: string; name: string; declaration: { name: string; module: string } }[];
  }[];
}

const ATTRIBUTES = [
  'checkout-id',
  'order',
  'endpoint',
  'locale',
  'payment-methods',
  'no-submit-button',
  'show-zip-code',
  'show-email',
  'show-installments',
  'max-installments',
  'customer-id',
  'save-card',
  'challenge',
  'donate',
];
// Spelled out as a record so that a new challenge mode fails the type check here.
const CHALLENGE_MODES: Record<ChallengeMode, true> = { auto: true, iframe: true, redirect: true };

let manifest: Manifest;
let element: Declaration;
before(() => {
  const file = PACKAGE.customElements.replace(/^\.\//, '');
  assert.ok(
    existsSync(new URL(file, ROOT)),
    `${file} is missing: run \`npm run build\` first (\`npm test\` builds before this suite)`,
  );
  manifest = JSON.parse(read(file)) as Manifest;
  const found = manifest.modules.flatMap((m) => m.declarations).find((d) => d.customElement);
  assert.ok(found, 'no custom element in the manifest');
  element = found;
});

function names(list: Described[]): string[] {
  return list.map((item) => item.name).sort();
}

function assertDescribed(list: Described[], what: string): void {
  for (const item of list)
    assert.ok(item.description?.trim(), `${what} ${item.name} has no description`);
}

test('one module, the package’s entry, defines <payment-widget>', () => {
  assert.equal(manifest.modules.length, 1);
  const [module] = manifest.modules;
  assert.equal(`./${module?.path}`, PACKAGE.exports['.'].import);
  assert.equal(element.tagName, 'payment-widget');
  assert.deepEqual(
    module?.exports.map((e) => [e.kind, e.name, e.declaration.name]),
    [
      ['js', 'PaymentWidget', 'PaymentWidget'],
      ['custom-element-definition', 'payment-widget', 'PaymentWidget'],
    ],
  );
});

test('all nine events, each with its detail type as the event map declares it', () => {
  assert.deepEqual(names(element.events), [...WIDGET_EVENTS].sort());
  assertDescribed(element.events, 'event');
  // The detail types as src/widget/events.ts maps them (`'payment-ready': PaymentReadyDetail;`).
  const source = read('src/widget/events.ts');
  const map = source.slice(source.indexOf('interface PaymentEventDetails'));
  for (const event of element.events) {
    const detail = new RegExp(`'${event.name}': (\\w+);`).exec(map)?.[1];
    assert.ok(detail, `${event.name} is not in PaymentEventDetails`);
    assert.equal(event.type?.text, `CustomEvent<${detail}>`, event.name);
  }
});

test('every attribute the README lists, each the attribute of its property', () => {
  assert.deepEqual(names(element.attributes), [...ATTRIBUTES].sort());
  assertDescribed(element.attributes, 'attribute');
  for (const [property, options] of Object.entries(PaymentWidget.properties)) {
    if (options.attribute === false || options.state) continue;
    const name = typeof options.attribute === 'string' ? options.attribute : property;
    const attribute = element.attributes.find((a) => a.name === name);
    assert.equal(attribute?.fieldName, property, `attribute ${name}`);
    assert.ok(attribute?.type?.text, `attribute ${name} has no type`);
  }
  const challenge = element.attributes.find((a) => a.name === 'challenge');
  const modes = challenge?.type?.text.split('|').map((m) => m.trim().replace(/'/g, ''));
  assert.deepEqual(modes?.sort(), Object.keys(CHALLENGE_MODES).sort());
});

test('every public property and method, described; nothing internal', () => {
  // Private members (`_form`, `_renderFields()`) are no one's to use: not in the manifest.
  const privates = element.members.filter((m) => m.privacy === 'private' || m.name.startsWith('_'));
  assert.deepEqual(names(privates), [], 'private members are in the manifest');
  const publicMembers = element.members;
  const fields = publicMembers.filter((m) => m.kind === 'field');
  // The table's internal state (`state: true`) is the element's own, not its API.
  const declared = Object.entries(PaymentWidget.properties).filter(([, o]) => !o.state);
  assert.deepEqual(names(fields), declared.map(([name]) => name).sort());
  assertDescribed(fields, 'property');
  const methods = publicMembers.filter((m) => m.kind === 'method');
  assert.deepEqual(names(methods), ['focus', 'reset', 'submit']);
  assertDescribed(methods, 'method');
  assert.ok(!element.members.some((m) => m.name === 'navigate'), 'a test hook is in the manifest');
});

/** Every source file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(new URL(dir, ROOT), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => read(join(dir, file)));
}

test('every CSS part the templates render, described', () => {
  const rendered = new Set<string>();
  for (const text of [...sources('src/widget/'), ...sources('src/next-step/')]) {
    for (const [, parts = ''] of text.matchAll(/\bpart="([^"]*)"/g)) {
      for (const part of parts.split(/\s+/)) rendered.add(part);
    }
  }
  // `field-${field}`: one part per field name, the union in src/widget/form/fields.ts.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's source text, as read
  assert.ok(rendered.delete('field-${field}'), 'the per-field part is not rendered as expected');
  const fields = read('src/widget/form/fields.ts');
  const start = fields.indexOf('export type FieldName');
  const union = fields.slice(start, fields.indexOf(';', start));
  const fieldNames = [...union.matchAll(/'(\w+)'/g)].map((m) => m[1]);
  assert.ok(fieldNames.length >= 14, 'read no field names');
  for (const name of fieldNames) rendered.add(`field-${name}`);
  assert.deepEqual(names(element.cssParts), [...rendered].sort());
  assertDescribed(element.cssParts, 'part');
});

test('every --payment-widget-* custom property the styles read, described', () => {
  const styles = sources('src/widget/').concat(sources('src/next-step/')).join('\n');
  const used = new Set([...styles.matchAll(/var\((--payment-widget-[\w-]+)/g)].map((m) => m[1]));
  assert.ok(used.size >= 10, 'read no custom properties');
  assert.deepEqual(names(element.cssProperties), [...used].sort());
  assertDescribed(element.cssProperties, 'custom property');
});
