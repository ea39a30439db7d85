/**
 * The in-person page: the till, plus the sandbox's device simulator panel when the provider
 * is the sandbox. No inline script, so its CSP allows its own files only.
 */
import { html } from '../http.ts';
import { render } from '../templates.ts';

/** The page's CSP: its own script and styles only, nothing inline, no framing. */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types',
].join('; ');

export function inPersonPage(currency: string, simulator: boolean): Response {
  const body = render('in-person.html', {
    currency,
    simulator: simulator ? 'on' : 'off',
    simulatorPanel: simulator ? render('in-person-simulator.html', {}) : '',
  });
  return html(body, 200, { 'content-security-policy': PAGE_CSP });
}
