// When the widget asks for its pay part (src/widget/parts/pay.ts: the card rules, Pay to the
// outcome): beside the checkout, as it loads it, not once the checkout and its methods have
// answered. On a slow network the part then arrives with the form instead of seconds after
// it. Alone in its file: a part is fetched once per page, so a test before it would have
// brought it already.
import { expect } from '@open-wc/testing';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, paste, widget } from './fake-backend.ts';

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
});
