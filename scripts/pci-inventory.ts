// `node --import tsx scripts/pci-inventory.ts`: writes the inventory table of docs/pci.md from
// dist/integrity.json (run `npm run build` first). test/node/budget/integrity.test.ts fails
// when the two disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { INVENTORY_MARKERS, inventoryMarkdown, manifest } from './integrity.ts';

const DOC = 'docs/pci.md';
const [open = '', close = ''] = INVENTORY_MARKERS;
const text = readFileSync(DOC, 'utf8');
const start = text.indexOf(open);
const end = text.indexOf(close);
if (start < 0 || end < start) throw new Error(`${DOC} has no ${open} ... ${close}`);
writeFileSync(
  DOC,
  `${text.slice(0, start + open.length)}\n${inventoryMarkdown(manifest())}\n${text.slice(end)}`,
);
