// Small inline network marks (24x16). Drawn, not the networks' logos: enough for
// the user to see that the number was recognised, a few hundred bytes in all.

import { type SVGTemplateResult, svg } from 'lit/html.js';
import type { CardNetwork } from '../card/index.ts';

const mark = (fill: string, label: string) =>
  svg`<rect width="24" height="16" rx="2" fill="${fill}"/><text x="12" y="11" fill="#fff" font-size="6.5" font-family="sans-serif" font-weight="700" text-anchor="middle">${label}</text>`;

const circles = (left: string, right: string) =>
  svg`<rect width="24" height="16" rx="2" fill="#252525"/><circle cx="9.5" cy="8" r="4.5" fill="${left}"/><circle cx="14.5" cy="8" r="4.5" fill="${right}" fill-opacity=".85"/>`;

const VISA = mark('#1a1f71', 'VISA');

const ICONS: Partial<Record<CardNetwork, SVGTemplateResult>> = {
  VISA,
  VISA_ELECTRON: VISA,
  VISA_VPAY: VISA,
  MASTERCARD: circles('#eb001b', '#f79e1b'),
  MAESTRO: circles('#0099df', '#eb001b'),
  AMEX: mark('#2e77bc', 'AMEX'),
  DISCOVER: mark('#f47216', 'DISC'),
  DINERS: mark('#0079be', 'DC'),
  JCB: mark('#0b7d3e', 'JCB'),
  ELO: mark('#000', 'elo'),
  HIPERCARD: mark('#b3131b', 'HIPER'),
  CUP: mark('#d10429', 'UP'),
};

const GENERIC = svg`<rect x=".5" y=".5" width="23" height="15" rx="2" fill="none" stroke="currentColor"/><rect x="1" y="4" width="22" height="2.5" fill="currentColor"/>`;

/** The icon for a network, or a plain card outline while it is unknown. */
export function networkIcon(network: CardNetwork | undefined): SVGTemplateResult {
  return (network && ICONS[network]) || GENERIC;
}
