// A language whose loader throws, then never settles: webpack 5's and Rspack 2's chunk loader
// on a page that enforces Trusted Types, built without their `output.trustedTypes`
// (./refused-loader.ts). Alone in
// its file: a language's strings, once loaded, are kept for the page, and the loader stood in
// here must be the first asked for German.
import { expect, oneEvent } from '@open-wc/testing';
import { LANGUAGES } from '../../../src/widget/locales/languages.ts';
import type { PaymentWidget } from '../../../src/widget/payment-widget.ts';
import { until } from '../../shared/until.ts';
import { FakeBackend, text, widget } from './fake-backend.ts';
import { REFUSED, refusedLoader } from './refused-loader.ts';

describe('payment-widget: a language whose loader throws, then never settles', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  it('shows the form in English in every widget and every later load, and the console says why', async () => {
    const load = LANGUAGES.de;
    if (!load) throw new Error('no German loader');
    const refused = refusedLoader();
    LANGUAGES.de = refused.load;
    const said: string[] = [];
    const error = console.error;
    console.error = (...args: unknown[]) => said.push(args.join(' '));
    const english = (el: PaymentWidget) => text(el).includes('Card number');
    try {
      const first = await widget(backend, `order='{"sku":"poster"}' locale="de-DE"`);
      expect(english(first)).to.equal(true);
      // A second widget in German: its form shows, in English, rather than "Loading…" for good.
      const second = await widget(backend, `order='{"sku":"mug"}' locale="de-CH"`, {
        waitFor: 'none',
      });
      await until(
        'the second widget shows its form',
        () => english(second) && !text(second).includes('Loading'),
      );
      // A locale changed to German at run time: English, not the French shown before.
      first.locale = 'fr-FR';
      await until('the French words', () => text(first).includes('Numéro de carte'));
      first.locale = 'de-AT';
      await until('the English words, for want of the German', () => english(first));
      // And the next checkout this widget loads shows its form too.
      const ready = oneEvent(first, 'payment-ready');
      first.order = { sku: 'poster', quantity: 2 };
      await ready;
      expect(english(first)).to.equal(true);
      // The loader was asked once: what it left behind was never waited on.
      expect(refused.asked()).to.equal(1);
      // Each time with the browser's reason, and what the page's developer can do about it.
      expect(said).to.have.length.above(0);
      for (const line of said)
        expect(line)
          .to.match(
            /^payment-widget: the de-(DE|CH|AT) strings could not load, so the widget shows English \(/,
          )
          .and.contain(REFUSED)
          .and.contain('output.trustedTypes');
    } finally {
      LANGUAGES.de = load;
      console.error = error;
    }
  });
});
