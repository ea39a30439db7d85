// Small inline network marks (24x16). Drawn, not the networks' logos: enough for
// the user to see that the number was recognised, a few hundred bytes in all.

import { type SVGTemplateResult, svg } from 'lit';
import type { CardNetwork } from '../../card/index.ts';

/**
 * A network's mark: "colour label" is a label on a coloured card; "colour
 * colour" two overlapping circles on a dark one (Mastercard's family). The
 * label's type is set in styles.ts (`.icon text`).
 */
const MARKS: Record<string, string> = {
  VISA: '#1a1f71 VISA',
  MASTERCARD: '#eb001b #f79e1b',
  MAESTRO: '#0099df #eb001b',
  AMEX: '#2e77bc AMEX',
  DISCOVER: '#f47216 DISC',
  DINERS: '#0079be DC',
  JCB: '#0b7d3e JCB',
  ELO: '#000 elo',
  HIPERCARD: '#b3131b HIPER',
  CUP: '#d10429 UP',
};

/** The icon for a network, or a plain card outline while it is unknown. */
export function networkIcon(network: CardNetwork | undefined): SVGTemplateResult {
  // VISA_ELECTRON and VISA_VPAY wear Visa's mark.
  const [a, b = ''] = (MARKS[network?.replace(/_.*/, '') ?? ''] ?? '').split(' ');
  if (!a) {
    return svg`<rect x=".5" y=".5" width="23" height="15" rx="2" fill="none" stroke="currentColor"/><rect x="1" y="4" width="22" height="2.5" fill="currentColor"/>`;
  }
  return b[0] === '#'
    ? svg`<rect width="24" height="16" rx="2" fill="#252525"/><circle cx="9.5" cy="8" r="4.5" fill=${a}/><circle cx="14.5" cy="8" r="4.5" fill=${b} fill-opacity=".85"/>`
    : svg`<rect width="24" height="16" rx="2" fill=${a}/><text x="12" y="11">${b}</text>`;
}
