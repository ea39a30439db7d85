// Small inline network marks (24x16), drawn by us rather than the networks' logos: each
// network's colour with its name (or, for Mastercard's family, its two circles), enough for
// the shopper to see at a glance that the number was recognised. They come with the typing
// part (src/widget/parts/typing.ts), which recognises the network; until a network is
// known the field draws a plain card outline of its own (./fields.ts).
//
// Every attribute value is quoted and every empty element closed with `/>`: `svg` templates
// are XML, and an unquoted `fill=${colour}/>` once let a build step read the slash as part
// of the value (the Visa mark drew as a black box). test/e2e/built-marks.spec.ts renders each
// mark from the built bundle and checks its colours and name.

import { type SVGTemplateResult, svg } from 'lit';
import type { CardNetwork } from '../../card/index.ts';

/** A network's card colour and the name written on it. */
interface NamedMark {
  background: string;
  name: string;
}

/** Two overlapping circles on a dark card: Mastercard's family. */
interface CirclesMark {
  left: string;
  right: string;
}

export const MARKS: Readonly<Record<string, NamedMark | CirclesMark>> = {
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

/** The mark a network wears: VISA_ELECTRON and VISA_VPAY wear Visa's. */
export function markOf(network: CardNetwork | undefined): NamedMark | CirclesMark | undefined {
  const family = network?.replace(/_.*/, '') ?? '';
  // Indexed as is (Safari 15.0-15.3 lack Object.hasOwn): a network's name is never an
  // Object.prototype member's.
  return MARKS[family];
}

/** The mark of a network; undefined while it is unknown (or has no mark of its own). */
export function networkMark(network: CardNetwork | undefined): SVGTemplateResult | undefined {
  const mark = markOf(network);
  if (!mark) return undefined;
  if ('left' in mark) {
    return svg`<rect width="24" height="16" rx="2" fill="#252525" /><circle cx="9.5" cy="8" r="4.5" fill="${mark.left}" /><circle cx="14.5" cy="8" r="4.5" fill="${mark.right}" fill-opacity="0.85" />`;
  }
  return svg`<rect width="24" height="16" rx="2" fill="${mark.background}" /><text x="12" y="10.5">${mark.name}</text>`;
}
