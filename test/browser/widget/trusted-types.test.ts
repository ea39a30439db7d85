import { expect } from '@open-wc/testing';
import { besideBundle } from '../../../src/shared/bundle-url.ts';
import { importChecked } from '../../../src/widget/parts/checked-import.ts';

// The widget's Trusted Types policy ('payment-widget', which pageSecurityHeaders() trusts by
// name) makes script URLs for the widget's own files only: those below its bundle's folder.
// Any other URL is refused before a <script> is made. Run from the sources here, the "bundle"
// is src/shared/bundle-url.ts: its folder is the widget's.

/** `sha384-...` of what `url` answers, as a <script integrity> takes it. */
async function integrityOf(url: string): Promise<string> {
  const bytes = await (await fetch(url)).arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  return `sha384-${btoa(String.fromCharCode(...digest))}`;
}

/** What importChecked() rejected with, or null when it loaded. */
async function refusal(url: string, integrity: string): Promise<Error | null> {
  return importChecked(url, integrity).then(
    () => null,
    (error: Error) => error,
  );
}

/** The <script> elements of the page whose `src` is `url`. */
const scriptsFor = (url: string) =>
  [...document.querySelectorAll('script')].filter((s) => s.src === url);

describe('the widget’s Trusted Types policy for script URLs', () => {
  it('loads a file of the widget’s own, checked against its integrity', async () => {
    const url = besideBundle('./luhn.ts');
    const module = await importChecked<{ luhn(digits: string): boolean }>(
      url,
      await integrityOf(url),
    );
    expect(module.luhn('4200000000000091')).to.equal(true);
    expect(scriptsFor(url)).to.have.length(1);
  });

  for (const [what, url] of [
    ['another origin', 'https://cdn.attacker.example/payment-widget/parts/pay.js'],
    ['a path that climbs out of the widget’s folder', besideBundle('../index.ts')],
    ['a path that climbs out once resolved', `${besideBundle('./')}%2e%2e/index.ts`],
    ['a page of its own origin outside that folder', new URL('/package.json', location.href).href],
    ['a javascript: URL', 'javascript:alert(1)'],
  ] as const) {
    it(`refuses ${what}: nothing is added to the page, nothing runs`, async () => {
      const error = await refusal(url, 'sha384-AAAA');
      // The policy's own refusal, naming the URL (not the page's, nor a failed load's).
      expect(error).to.be.instanceOf(TypeError);
      expect(error?.message).to.equal(url);
      expect(scriptsFor(url)).to.have.length(0);
      expect(performance.getEntriesByName(url)).to.have.length(0);
    });
  }
});
