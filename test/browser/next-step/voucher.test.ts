import { expect } from '@open-wc/testing';
import { type CheckoutView, runAction } from '../../../src/next-step/index.ts';
import { until } from '../../shared/until.ts';
import { checkoutWith, dispose, type Harness, harness, STRINGS } from './helpers.ts';

const DIGITS = '23793381286000782713695000063305975520000370000';
const GROUPED = '23793.38128 60007.827136 95000.063305 9 75520000370000';
const VOUCHER_URL = 'https://boleto.example.com/v/chk_1.pdf';

function boletoCheckout(boleto: CheckoutView['boleto']): CheckoutView {
  return checkoutWith({ boleto });
}

function stubClipboard(writeText: (text: string) => Promise<void>): () => void {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
  return () => {
    delete (navigator as { clipboard?: unknown }).clipboard;
  };
}

describe('voucher (boleto)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => dispose(h));

  it('shows the grouped digits, a copy button and the voucher link, and reports pending', async () => {
    const checkout = boletoCheckout({ barcode: DIGITS, url: VOUCHER_URL });
    const outcome = await runAction({ kind: 'voucher', checkout }, h.ctx);
    expect(outcome).to.deep.equal({ kind: 'pending', checkout });

    const root = h.container;
    expect(root.textContent).to.include(STRINGS.voucherTitle).and.include(STRINGS.voucherBarcode);
    const code = root.querySelector('code');
    expect(code?.textContent).to.equal(GROUPED);
    expect(getComputedStyle(code as Element).fontFamily).to.match(/monospace/);
    expect(root.querySelector('button')?.textContent).to.equal(STRINGS.copy);
    const link = root.querySelector('a');
    expect(link?.href).to.equal(VOUCHER_URL);
    expect(link?.textContent).to.equal(STRINGS.openVoucher);
    expect(link?.target).to.equal('_blank');
    expect(link?.relList.contains('noopener')).to.equal(true);
    expect(h.navigations).to.have.length(0);
  });

  it('is accessible', async () => {
    await runAction(
      { kind: 'voucher', checkout: boletoCheckout({ barcode: DIGITS, url: VOUCHER_URL }) },
      h.ctx,
    );
    await expect(h.container).to.be.accessible();
  });

  it('groups other barcodes in fives', async () => {
    await runAction(
      { kind: 'voucher', checkout: boletoCheckout({ barcode: '123456789012' }) },
      h.ctx,
    );
    expect(h.container.querySelector('code')?.textContent).to.equal('12345 67890 12');
    expect(h.container.querySelector('a')).to.equal(null);
  });

  it('copies the bare digits and announces it in a live region, every time', async () => {
    const copied: string[] = [];
    const restore = stubClipboard(async (text) => {
      copied.push(text);
    });
    try {
      await runAction(
        { kind: 'voucher', checkout: boletoCheckout({ barcode: GROUPED, url: VOUCHER_URL }) },
        h.ctx,
      );
      const status = h.container.querySelector('[role="status"]');
      expect(status?.textContent).to.equal('');
      const button = h.container.querySelector('button');
      button?.click();
      await until('Copied', () => status?.textContent === STRINGS.copied);
      expect(copied).to.deep.equal([DIGITS]);

      button?.click();
      // Emptied at once, then filled again, so screen readers hear it twice.
      expect(status?.textContent).to.equal('');
      await until('Copied', () => status?.textContent === STRINGS.copied);
      expect(copied).to.have.length(2);
    } finally {
      restore();
    }
  });

  it('selects the digits when the clipboard refuses, and says how to copy them', async () => {
    const restore = stubClipboard(() =>
      Promise.reject(new DOMException('denied', 'NotAllowedError')),
    );
    try {
      await runAction({ kind: 'voucher', checkout: boletoCheckout({ barcode: DIGITS }) }, h.ctx);
      h.container.querySelector('button')?.click();
      await until('a selection', () => (window.getSelection()?.toString() ?? '') !== '');
      expect(window.getSelection()?.toString()).to.equal(GROUPED);
      // Announced, and never "copied": the shopper still has to press the keys.
      const status = h.container.querySelector('[role="status"]');
      await until('the manual copy hint', () => status?.textContent === STRINGS.copyManual);
      expect(status?.textContent).not.to.equal(STRINGS.copied);
    } finally {
      restore();
    }
  });

  for (const url of ['javascript:alert(1)', 'http://example.com/boleto.pdf']) {
    it(`refuses a voucher URL ${url}: nothing rendered`, async () => {
      const outcome = await runAction(
        { kind: 'voucher', checkout: boletoCheckout({ barcode: DIGITS, url }) },
        h.ctx,
      );
      expect(outcome).to.include({ kind: 'refused', code: 'UNSAFE_NEXT_STEP' });
      expect(h.container.childElementCount).to.equal(0);
    });
  }

  it('is removed when the step is aborted', async () => {
    await runAction({ kind: 'voucher', checkout: boletoCheckout({ barcode: DIGITS }) }, h.ctx);
    expect(h.container.childElementCount).to.equal(1);
    h.controller.abort();
    expect(h.container.childElementCount).to.equal(0);
  });
});
