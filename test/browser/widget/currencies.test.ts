// Every amount the widget writes (the Pay button, "You paid", a step offered again) has the
// currency's minor unit as the handler charges it (src/schemas/currencies.ts), the same in
// every engine: whole forints, pesos and yen with no decimals, dinars to the fils, and an
// amount in a currency of two decimals never rounded to a whole one. The engines' own data
// disagree: Firefox and WebKit wrote "HUF 12,500.00" and "COP 25,000.00", Chromium wrote
// IDR 15000.5 as "IDR 15,001".

import { expect } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { until } from '../../shared/until.ts';
import { $, FakeBackend, widget } from './fake-backend.ts';

const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
const CHALLENGE = { url: ACS, method: 'GET', payload: { PaReq: 'p', MD: 'm', TermUrl: ACS } };

/** Currency, amount, and the amount as the shopper reads it in en-GB. */
const AMOUNTS = [
  ['HUF', 12500, 'HUF 12,500'],
  ['CLP', 5990, 'CLP 5,990'],
  ['COP', 25000, 'COP 25,000'],
  ['JPY', 1500, 'JP¥1,500'],
  ['KWD', 5.125, 'KWD 5.125'],
  ['KWD', 5, 'KWD 5.000'],
  ['IDR', 15000.5, 'IDR 15,000.50'],
] as const;

const words = (node: Element) => (node.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('payment-widget: amounts in the currency’s minor unit', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => {
    backend.restore();
    sessionStorage.clear();
  });

  const payIn = (currency: string, amount: number) => {
    backend.checkout = { ...backend.checkout, currency, amount };
  };

  for (const [currency, amount, written] of AMOUNTS) {
    it(`${amount} ${currency} reads "${written}" on Pay, after paying and on a step offered again`, async () => {
      payIn(currency, amount);
      const form: PaymentWidget = await widget(backend, 'checkout-id="chk_1"');
      expect(words($(form, 'button[part~=button]'))).to.equal(`Pay ${written}`);
      form.remove();

      backend.checkout = {
        ...backend.checkout,
        redirect_url: 'https://shop.example/return',
        next_step: CHALLENGE,
        payment_type: 'card',
      };
      const step = await widget(backend, 'checkout-id="chk_1"');
      step.navigate = () => {};
      await until('the offer', () => Boolean(step.shadowRoot?.querySelector('[part~=resume]')));
      expect(words($(step, '[part~=resume-why]'))).to.equal(
        `Your payment of ${written} is not finished: your bank needs you to confirm it.`,
      );
      step.remove();

      const { next_step: _, payment_type: __, redirect_url: ___, ...settled } = backend.checkout;
      backend.checkout = { ...settled, status: 'PAID' };
      const paid = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-success' });
      await until('the outcome', () => words($(paid, '[part~=outcome-region]')) !== '');
      expect(words($(paid, '[part~=outcome-region]'))).to.equal(
        `Payment successful You paid ${written}`,
      );
    });
  }
});
