// The card's network mark as the built bundle draws it: every build step between the
// source and dist/ (the bundler, its minifier, the CSS step) must leave what the shopper
// sees alone. A template minifier once read `fill=${colour}/>` as `fill="#1a1f71/"`, nesting
// the rest of the mark inside an unclosed <rect>: the Visa mark was a black box, and no test
// rendered the built output. So this types a number of each network into the demo shop's
// widget (the script-tag build, dist/payment-widget.iife.js) and checks the mark both as
// drawn elements and as pixels.
import { detectNetwork } from '../../src/card/index.ts';
import { MARKS } from '../../src/widget/templates/icons.ts';
import { expect, openShop, test } from './fixtures.ts';

/**
 * What each mark looks like, written here rather than read from the code under test: a card
 * of the network's colour with its name on it, or two circles on a dark card.
 */
const LOOKS: Record<
  string,
  { background: string; name: string } | { left: string; right: string }
> = {
  VISA: { background: '#1a1f71', name: 'VISA' },
  MASTERCARD: { left: '#eb001b', right: '#f79e1b' },
  MAESTRO: { left: '#0099df', right: '#eb001b' },
  AMEX: { background: '#2e77bc', name: 'AMEX' },
  DISCOVER: { background: '#f47216', name: 'DISC' },
  DINERS: { background: '#0079be', name: 'DC' },
  JCB: { background: '#0b7d3e', name: 'JCB' },
  ELO: { background: '#000000', name: 'elo' },
  HIPERCARD: { background: '#b3131b', name: 'HIPER' },
  CUP: { background: '#d10429', name: 'UP' },
};

/** A number prefix of each network, enough digits for the widget to name it. */
const PREFIXES: Record<string, string> = {
  VISA: '4111 11',
  MASTERCARD: '5555 55',
  MAESTRO: '6759 64',
  AMEX: '3782 82',
  DISCOVER: '6011 11',
  DINERS: '3056 93',
  JCB: '3530 11',
  ELO: '6362 97',
  HIPERCARD: '6062 82',
  CUP: '6212 34',
};

/** What the widget drew as the card number's icon. */
interface Drawn {
  /** Each drawn shape, with its parent's tag (a shape inside a shape is not drawn at all). */
  shapes: { tag: string; parent: string; fill: string | null }[];
  text: string;
}

/** "#1a1f71" as [26, 31, 113]. */
function rgb(hex: string): number[] {
  const six = hex.length === 4 ? hex.replace(/\w/g, '$&$&') : hex;
  return [1, 3, 5].map((i) => Number.parseInt(six.slice(i, i + 2), 16));
}

test('the tables cover every mark, with a number of that network', () => {
  expect(Object.keys(PREFIXES).sort()).toEqual(Object.keys(MARKS).sort());
  expect(Object.keys(LOOKS).sort()).toEqual(Object.keys(MARKS).sort());
  for (const [network, prefix] of Object.entries(PREFIXES)) {
    expect(detectNetwork(prefix.replace(/ /g, '')), prefix).toBe(network);
  }
});

// Four device pixels to a CSS pixel: a 24 by 16 mark is drawn in 96 by 64, where a name
// left out or a shape drawn wrong changes hundreds of pixels, not a few.
test.use({ deviceScaleFactor: 4 });

test('every network mark of the built bundle is drawn in its colours, with its name', async ({
  page,
  shop,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await openShop(page, shop);
  const number = page.getByLabel('Card number');
  const icon = page.locator('payment-widget').locator('svg.icon');
  for (const [network, prefix] of Object.entries(PREFIXES)) {
    const mark = LOOKS[network];
    if (!mark) throw new Error(`no mark for ${network}`);
    await number.fill(prefix);
    const drawn = await icon.evaluate(
      (svg): Drawn => ({
        shapes: [...svg.querySelectorAll('rect, circle')].map((shape) => ({
          tag: shape.localName,
          parent: shape.parentElement?.localName ?? '',
          fill: shape.getAttribute('fill'),
        })),
        text: svg.querySelector('text')?.textContent ?? '',
      }),
    );
    // Every shape sits directly in the <svg>: nothing nested inside a <rect>.
    for (const shape of drawn.shapes) expect(shape.parent, `${network} ${shape.tag}`).toBe('svg');
    const pixels = await icon.screenshot({ animations: 'disabled' });
    const colours = await page.evaluate(async (png) => {
      const image = await createImageBitmap(
        new Blob([Uint8Array.from(atob(png), (c) => c.charCodeAt(0))], { type: 'image/png' }),
      );
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.drawImage(image, 0, 0);
      const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
      const at = (x: number, y: number) => {
        const i = (Math.round(y * (height - 1)) * width + Math.round(x * (width - 1))) * 4;
        return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
      };
      // Near-white pixels in the middle of the card, where its name is written (the page's
      // white shows at the rounded corners, outside this box).
      let light = 0;
      let middle = 0;
      for (let y = Math.round(height * 0.25); y < height * 0.75; y += 1) {
        for (let x = Math.round(width * 0.15); x < width * 0.85; x += 1) {
          const i = (y * width + x) * 4;
          middle += 1;
          if ((data[i] ?? 0) > 200 && (data[i + 1] ?? 0) > 200 && (data[i + 2] ?? 0) > 200) {
            light += 1;
          }
        }
      }
      return {
        corner: at(0.12, 0.12),
        left: at(0.38, 0.5),
        right: at(0.62, 0.5),
        lightShare: light / middle,
      };
    }, pixels.toString('base64'));
    const close = (got: number[] | undefined, want: number[], what: string) => {
      const off = Math.max(...want.map((v, i) => Math.abs(v - (got?.[i] ?? -999))));
      expect(off, `${network}: ${what} is rgb(${got}), not rgb(${want})`).toBeLessThan(40);
    };
    if ('name' in mark) {
      expect(drawn.shapes.map((s) => [s.tag, s.fill])).toEqual([['rect', mark.background]]);
      expect(drawn.text).toBe(mark.name);
      close(colours.corner, rgb(mark.background), 'the card');
      expect(colours.lightShare, `${network}: its name is not drawn`).toBeGreaterThan(0.05);
    } else {
      expect(drawn.shapes.map((s) => [s.tag, s.fill])).toEqual([
        ['rect', '#252525'],
        ['circle', mark.left],
        ['circle', mark.right],
      ]);
      close(colours.left, rgb(mark.left), 'the left circle');
      // The right circle is drawn see-through over the dark card (fill-opacity 0.85).
      close(
        colours.right,
        rgb(mark.right).map((v) => Math.round(v * 0.85 + 0x25 * 0.15)),
        'the right circle',
      );
    }
  }
});
