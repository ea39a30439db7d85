/**
 * Comparing a shot with its baseline, pixel by pixel (pixelmatch), and writing shots as
 * small PNGs (pngjs): opaque, so RGB without alpha, at the best compression.
 */
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/**
 * How far a pixel's colour may move before it counts as different: pixelmatch's threshold
 * (0 to 1, in its perceptual colour distance). Small enough that a colour, a border or a
 * glyph that changes is caught; it absorbs rounding in how an engine blends text.
 */
export const PIXEL_THRESHOLD = 0.1;

/**
 * How many pixels may differ beyond PIXEL_THRESHOLD (anti-aliased edges never count): WebKit
 * blends a rounded corner's few pixels a little differently after a resize. A moved box, a
 * changed word or a network mark's colours differ in hundreds.
 */
export const MAX_DIFFERENT_PIXELS = 16;

export type Comparison =
  | { kind: 'same' }
  | { kind: 'size'; expected: string; actual: string }
  | { kind: 'pixels'; different: number; diff: Buffer };

/** A rectangle of a shot, in its pixels. */
export interface Area {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What a mask paints: magenta, which no state of the widget uses. */
const MASK = [255, 0, 255] as const;

/**
 * A browser's PNG as the compact PNG the baselines keep (RGB, best compression), with
 * `masks` painted over.
 */
export function compact(png: Uint8Array, masks: readonly Area[] = []): Buffer {
  const image = PNG.sync.read(Buffer.from(png));
  for (const area of masks) {
    const left = Math.max(0, Math.floor(area.left));
    const top = Math.max(0, Math.floor(area.top));
    const right = Math.min(image.width, Math.ceil(area.left + area.width));
    const bottom = Math.min(image.height, Math.ceil(area.top + area.height));
    for (let y = top; y < bottom; y++) {
      for (let x = left; x < right; x++) {
        const at = (y * image.width + x) * 4;
        image.data[at] = MASK[0];
        image.data[at + 1] = MASK[1];
        image.data[at + 2] = MASK[2];
      }
    }
  }
  // No row filter and zlib's default strategy: on flat interface shots a third smaller than
  // pngjs's defaults (adaptive filters, run-length strategy). The README's shot ships in the
  // package (docs/screenshots), whose size is budgeted.
  return PNG.sync.write(image, PNG_OPTIONS);
}

/** How every baseline and the README's shots are written. */
export const PNG_OPTIONS = {
  colorType: 2,
  deflateLevel: 9,
  deflateStrategy: 0,
  filterType: 0,
} as const;

const size = (image: PNG) => `${image.width}x${image.height}`;

/** Whether `actual` shows what `expected` shows, and where not, an image of the differences. */
export function compare(actual: Uint8Array, expected: Uint8Array): Comparison {
  const a = PNG.sync.read(Buffer.from(actual));
  const e = PNG.sync.read(Buffer.from(expected));
  if (a.width !== e.width || a.height !== e.height) {
    return { kind: 'size', expected: size(e), actual: size(a) };
  }
  const diff = new PNG({ width: a.width, height: a.height });
  const different = pixelmatch(a.data, e.data, diff.data, a.width, a.height, {
    threshold: PIXEL_THRESHOLD,
  });
  if (different <= MAX_DIFFERENT_PIXELS) return { kind: 'same' };
  return { kind: 'pixels', different, diff: PNG.sync.write(diff) };
}

/**
 * Where `actual` and `expected` (the same size) part, with `margin` pixels around, as two
 * crops enlarged `scale` times (each pixel a square, no smoothing): what the review page shows
 * beside the whole shots, so that a few changed pixels are seen. Undefined when none differ.
 */
export function zoomed(
  actual: Uint8Array,
  expected: Uint8Array,
  { margin = 8, scale = 4 } = {},
): { actual: Buffer; expected: Buffer } | undefined {
  const a = PNG.sync.read(Buffer.from(actual));
  const e = PNG.sync.read(Buffer.from(expected));
  const diff = new PNG({ width: a.width, height: a.height });
  pixelmatch(a.data, e.data, diff.data, a.width, a.height, {
    threshold: PIXEL_THRESHOLD,
    diffMask: true,
  });
  let [left, top, right, bottom] = [a.width, a.height, -1, -1];
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      // With diffMask, only the pixels that differ are drawn (opaque, over transparent).
      if ((diff.data[(y * a.width + x) * 4 + 3] ?? 0) === 0) continue;
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x);
      bottom = Math.max(bottom, y);
    }
  }
  if (right < 0) return undefined;
  const area = {
    left: Math.max(0, left - margin),
    top: Math.max(0, top - margin),
    width: Math.min(a.width, right + margin + 1) - Math.max(0, left - margin),
    height: Math.min(a.height, bottom + margin + 1) - Math.max(0, top - margin),
  };
  return { actual: enlarge(a, area, scale), expected: enlarge(e, area, scale) };
}

function enlarge(image: PNG, area: Area, scale: number): Buffer {
  const out = new PNG({ width: area.width * scale, height: area.height * scale });
  for (let y = 0; y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const from =
        ((area.top + Math.floor(y / scale)) * image.width + area.left + Math.floor(x / scale)) * 4;
      image.data.copy(out.data, (y * out.width + x) * 4, from, from + 4);
    }
  }
  return PNG.sync.write(out, { colorType: 2 });
}
