/**
 * The demo's templates read from `demo/` on Node: per render, not cached, so editing a demo
 * page shows on the next reload. (The static site's worker has them built in.)
 */
import { readFileSync } from 'node:fs';
import { fill, type Render } from './pages.ts';

const DEMO_DIR = new URL('../demo/', import.meta.url);

export const render: Render = (name, slots) =>
  fill(readFileSync(new URL(name, DEMO_DIR), 'utf8'), slots);
