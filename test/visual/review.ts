/**
 * The review page of a screenshot run: every shot that is not what its baseline showed, as
 * the baseline (before), the new shot (after) and the image of their differences, side by
 * side, in test-results/visual/<engine>/review.html. A run that writes the baselines
 * (`npm run screenshots`) lists what it changed, for its author to look at before committing;
 * a run that compares lists what failed.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One shot that changed: its name and what the page shows of it. */
export interface Changed {
  name: string;
  /** Why it is listed: "412 pixels differ", "390x512 instead of 390x498", "new". */
  why: string;
  /** The image files, in the results folder: before (absent for a new shot), after, diff. */
  before?: string;
  after: string;
  diff?: string;
  /** Where before and after part, enlarged (compare.ts's zoomed). */
  zoom?: { before: string; after: string };
}

/** Collects the changed shots of one engine's run and writes its page. */
export class Review {
  readonly #changed: Changed[] = [];
  readonly #results: string;
  readonly #title: string;

  /** `results`: the folder the page and its images go in (test-results/visual/<engine>). */
  constructor(results: string, title: string) {
    this.#results = results;
    this.#title = title;
  }

  /**
   * Keeps a copy of `baseline` as it was (`<name>-before.png`, beside the new shot and the
   * diff the caller writes in the results folder) and lists the shot.
   */
  add(shot: Omit<Changed, 'before'>, baseline: string): void {
    let before: string | undefined;
    if (existsSync(baseline)) {
      before = join(this.#results, `${shot.name}-before.png`);
      copyFileSync(baseline, before);
    }
    this.#changed.push({ ...shot, ...(before && { before }) });
  }

  get count(): number {
    return this.#changed.length;
  }

  /** Writes the page (also when nothing changed, so an old page never stands for this run). */
  write(): string {
    const page = join(this.#results, 'review.html');
    const image = (file: string | undefined, alt: string) =>
      file
        ? `<figure><img src="${escapeHtml(relative(this.#results, file))}" alt="${alt}"><figcaption>${alt}</figcaption></figure>`
        : `<figure><p>none</p><figcaption>${alt}</figcaption></figure>`;
    const rows = this.#changed.map(
      (shot) =>
        `<section><h2>${escapeHtml(shot.name)}: ${escapeHtml(shot.why)}</h2><div>${image(shot.before, 'before')}${image(shot.after, 'after')}${image(shot.diff, 'difference')}</div>${shot.zoom ? `<div>${image(shot.zoom.before, 'before, where they part, 4 times')}${image(shot.zoom.after, 'after, where they part, 4 times')}</div>` : ''}</section>`,
    );
    writeFileSync(
      page,
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(this.#title)}</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1rem; }
  section { border-top: 1px solid #ccc; padding: 0.5rem 0; }
  h2 { font-size: 1rem; }
  div { display: flex; gap: 1rem; align-items: flex-start; flex-wrap: wrap; }
  figure { margin: 0; }
  img { border: 1px solid #999; image-rendering: pixelated; }
</style></head>
<body><h1>${escapeHtml(this.#title)}</h1>
<p>${this.#changed.length} shot${this.#changed.length === 1 ? '' : 's'} changed. Before is the baseline the run found, after what the browser drew, difference where they part (red).</p>
${rows.join('\n')}
</body></html>
`,
    );
    return page;
  }
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  );
}
