// When the widget asks for its pay part (src/widget/parts/pay.ts: the card rules, Pay to the
// outcome): beside the checkout, as it loads it, not once the checkout and its methods have
// answered. On a slow network the part then arrives with the form instead of seconds after
// it. Alone in its file: a part is fetched once per page, so a test before it would have
// brought it already.
import { expect } from '@open-wc/testing';
import { PARTS } from '../../../src/widget/parts/imports.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, paste, text, widget } from './fake-backend.ts';
import { REFUSED, refusedLoader } from './refused-loader.ts';

const payPartAsked = () =>
  performance.getEntriesByType('resource').some((entry) => entry.name.includes('/parts/pay.ts'));

describe('payment-widget: its pay part', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('is asked for beside the checkout, before the checkout answers', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    backend.overrides.set('POST /checkouts', async () => {
      await answered;
      return { status: 201, body: backend.checkout };
    });
    expect(payPartAsked()).to.equal(false);
    const shown = widget(backend, `order='{"sku":"poster"}'`);
    await until('the pay part asked for while the checkout is held', payPartAsked);
    // Nothing else answered meanwhile: the checkout is still on its way.
    expect(backend.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal(['POST /checkouts']);

    answer();
    const el = await shown;
    // The form the part found on its way was the placeholder: the real one types with the
    // card rules all the same.
    const number = $(el, '#number');
    paste(number, '4200000000000091');
    await el.updateComplete;
    expect(number.value).to.equal('4200 0000 0000 0091');
  });

  it('whose loader throws, then never settles (webpack’s and Rspack’s under Trusted Types): the console says which and why, and Pay ends in what the shopper can act on, every time', async () => {
    // As webpack 5's and Rspack 2's chunk loader does under Trusted Types (./refused-loader.ts).
    const load = PARTS.pay;
    const refused = refusedLoader();
    PARTS.pay = refused.load;
    const said: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => said.push(args.join(' '));
    try {
      const el = await widget(backend, `order='{"sku":"poster"}'`);
      await until('the console names the part and why', () =>
        said.some((line) => line.startsWith('payment-widget: its "pay" part could not load (')),
      );
      const button = (name: RegExp) =>
        [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) =>
          name.test(b.textContent ?? ''),
        );
      const unreachable = 'We could not reach the payment service.';
      button(/^\s*Pay/)?.click();
      await until('the shopper reads that it could not load', () => text(el).includes(unreachable));
      // "Try again" fails as at first, at once: the loader, whose answer would never come, is
      // not asked again.
      const lines = said.length;
      button(/^\s*Try again/)?.click();
      await until('the console says it again', () => said.length > lines);
      await el.updateComplete;
      expect(text(el)).to.contain(unreachable);
      expect(text(el)).not.to.contain('Processing');
      expect(refused.asked()).to.equal(1);
      // Each time with the browser's reason, and what the page's developer can do about it.
      for (const line of said) expect(line).to.contain(REFUSED).and.contain('output.trustedTypes');
    } finally {
      PARTS.pay = load;
      console.error = error;
    }
  });
});
