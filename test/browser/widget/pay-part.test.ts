// When the widget asks for its pay part (src/widget/parts/pay.ts: the card rules, Pay to the
// outcome): beside the checkout, as it loads it, not once the checkout and its methods have
// answered. On a slow network the part then arrives with the form instead of seconds after
// it. Alone in its file: a part is fetched once per page, so a test before it would have
// brought it already.
import { expect, oneEvent } from '@open-wc/testing';
import { nextFrame } from '../../../src/widget/frame.ts';
import { PARTS } from '../../../src/widget/parts/imports.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, paste, text, widget } from './fake-backend.ts';
import { REFUSED, refusedLoader } from './refused-loader.ts';

const payPartAsked = () =>
  performance.getEntriesByType('resource').some((entry) => entry.name.includes('/parts/pay.ts'));

/** Holds the checkout's creation until the function handed back is called. */
function holdCheckout(backend: FakeBackend): () => void {
  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  backend.overrides.set('POST /checkouts', async () => {
    await answered;
    return { status: 201, body: backend.checkout };
  });
  return answer;
}

describe('payment-widget: its pay part', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('is asked for beside the checkout, before the checkout answers', async () => {
    const answer = holdCheckout(backend);
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

  it('whose loader throws, then never settles (webpack’s and Rspack’s under Trusted Types): the widget says at once that it could not be loaded, offers nothing that cannot work, and the page and the console hear why', async () => {
    // As webpack 5's and Rspack 2's chunk loader does under Trusted Types (./refused-loader.ts).
    const load = PARTS.pay;
    const refused = refusedLoader();
    PARTS.pay = refused.load;
    const said: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => said.push(args.join(' '));
    const events: string[] = [];
    const heard = (event: Event) => events.push(event.type);
    for (const name of ['payment-ready', 'payment-error']) document.addEventListener(name, heard);
    // The checkout answers once the widget has said so: what the load does after it is seen.
    const answer = holdCheckout(backend);
    try {
      // Heard where the page listens, as the checkout loads: the part is asked for beside it.
      const errored = oneEvent(document, 'payment-error');
      const el = await widget(backend, `order='{"sku":"poster"}'`, { waitFor: 'none' });
      const { detail } = await errored;
      // No retry can load it on this page: not retryable, with the code for what the widget
      // did not expect, and the browser's reason and the setting in its message.
      expect(detail).to.include({ code: 'UNEXPECTED', retryable: false });
      expect(detail.message).to.contain(REFUSED).and.contain('output.trustedTypes');
      await el.updateComplete;
      // Its words, and nothing to fill in or press: no card typed for a Pay that cannot pay,
      // and no "Try again" that cannot work.
      expect(text(el)).to.equal('The payment form could not be loaded');
      expect(el.shadowRoot?.querySelectorAll('button, input')).to.have.length(0);
      // The checkout answers: two frames on, the widget has asked for nothing more (it asks
      // for the methods at once) nor said it is ready (a frame after them).
      await until('the checkout asked for', () => backend.calls.length > 0);
      answer();
      await nextFrame();
      await nextFrame();
      await el.updateComplete;
      expect(backend.calls.map((c) => `${c.method} ${c.path}`)).to.deep.equal(['POST /checkouts']);
      expect(events).to.deep.equal(['payment-error']);
      expect(text(el)).to.equal('The payment form could not be loaded');
      // The loader, whose answer would never come, was asked once.
      expect(refused.asked()).to.equal(1);
      // The console names the part, the browser's reason, and what the page's developer can do.
      expect(said[0]).to.match(/^payment-widget: its "pay" part could not load \(/);
      for (const line of said) expect(line).to.contain(REFUSED).and.contain('output.trustedTypes');
    } finally {
      PARTS.pay = load;
      console.error = error;
      for (const name of ['payment-ready', 'payment-error'])
        document.removeEventListener(name, heard);
    }
  });
});
