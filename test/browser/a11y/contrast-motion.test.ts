// Contrast AA in both colour schemes, and no motion for shoppers who asked for
// none. The page follows the scheme the way a merchant's dark-capable page does
// (color-scheme and a Canvas background), so axe sees what a shopper sees.
import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { emulateMedia } from '../commands.ts';
import { $, FakeBackend, paste, widget } from '../widget/fake-backend.ts';
import { describeViolations, runAxe } from './axe.ts';

const METHODS = ['card', 'ideal', 'bancontact', 'blik', 'boleto'];

async function contrast(el: PaymentWidget, state: string): Promise<number> {
  await el.updateComplete;
  const results = await runAxe(el, { runOnly: ['color-contrast'], iframes: false });
  expect(describeViolations(results), state).to.deep.equal([]);
  return results.passes.flatMap((p) => p.nodes).length;
}

for (const scheme of ['light', 'dark'] as const) {
  describe(`contrast AA, ${scheme} scheme`, () => {
    let backend: FakeBackend;
    before(async () => {
      await emulateMedia({ colorScheme: scheme });
      document.documentElement.style.cssText = 'color-scheme: light dark; background: Canvas';
    });
    after(async () => {
      document.documentElement.style.cssText = '';
      await emulateMedia({ colorScheme: 'light' });
    });
    beforeEach(() => {
      backend = new FakeBackend();
      backend.methods = METHODS;
      backend.checkout = { ...backend.checkout, redirect_url: 'https://shop.example/return' };
    });
    afterEach(() => backend.restore());

    it('labels, hints, errors, choices, the button and the status text', async () => {
      const el = await widget(
        backend,
        'checkout-id="chk_1" locale="en-GB" show-email show-installments save-card',
      );
      // The scheme really switched: the label text is dark on light, light on dark.
      const [r = 0] = getComputedStyle($(el, 'label[for=number]'))
        .color.match(/\d+/g)
        ?.map(Number) ?? [0];
      expect(r > 128, `label colour in ${scheme}`).to.equal(scheme === 'dark');
      let checked = await contrast(el, 'empty');
      const invalid = oneEvent(el, 'payment-invalid');
      void el.submit();
      await invalid;
      checked += await contrast(el, 'errors');
      // Every node with text was looked at, not skipped as "cannot tell".
      expect(checked).to.be.greaterThan(15);
    });

    it('the success, failure and voucher states', async () => {
      for (const status of ['PAID', 'FAILED']) {
        backend.checkout = { ...backend.checkout, status };
        const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"', {
          waitFor: status === 'PAID' ? 'payment-success' : 'payment-failure',
        });
        expect(await contrast(el, status)).to.be.greaterThan(0);
        el.remove();
      }
      backend.checkout = { ...backend.checkout, status: 'PENDING' };
      backend.process = () => {
        backend.checkout = {
          ...backend.checkout,
          boleto: {
            barcode: '34191790010104351004791020150008291070026000',
            url: 'https://b.example/v.pdf',
          },
        };
        return { status: 200, body: backend.checkout };
      };
      const el = await widget(backend, 'checkout-id="chk_1" locale="pt-BR"');
      el.shadowRoot?.querySelectorAll<HTMLInputElement>('input[name=method]')[4]?.click();
      await el.updateComplete;
      const values: Record<string, string> = {
        firstName: 'Ana',
        lastName: 'Silva',
        email: 'ana@example.com',
        taxId: '12345678909',
        line1: 'Rua A 1',
        city: 'Recife',
        state: 'PE',
        postalCode: '50000-000',
      };
      for (const [id, value] of Object.entries(values)) paste($(el, `#${id}`), value);
      const pending = oneEvent(el, 'payment-pending');
      void el.submit();
      await pending;
      expect(await contrast(el, 'voucher')).to.be.greaterThan(2);
    });
  });
}

describe('prefers-reduced-motion', () => {
  let backend: FakeBackend;
  const merchantTheme = document.createElement('style');
  before(() => {
    // A merchant's theme that animates the button through ::part.
    merchantTheme.textContent = `
      @keyframes pulse { from { opacity: 1 } to { opacity: 0.5 } }
      payment-widget::part(button) { transition: background-color 400ms; animation: pulse 1s infinite; }
      payment-widget::part(input) { transition: border-color 300ms; }
    `;
    document.head.append(merchantTheme);
  });
  after(async () => {
    merchantTheme.remove();
    await emulateMedia({ reducedMotion: 'no-preference' });
  });
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => backend.restore());

  /** Everything in the widget that would move: its transitions and animations. */
  function motion(el: PaymentWidget): string[] {
    return [...(el.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? [])].flatMap((node) => {
      const style = getComputedStyle(node);
      const moving = [];
      if (style.transitionDuration.split(',').some((d) => Number.parseFloat(d) > 0)) {
        moving.push(`${node.localName}#${node.id} transition ${style.transitionDuration}`);
      }
      if (style.animationName !== 'none') {
        moving.push(`${node.localName}#${node.id} animation ${style.animationName}`);
      }
      return moving;
    });
  }

  it("moves nothing, not even a merchant's ::part animation, when the shopper asks", async () => {
    await emulateMedia({ reducedMotion: 'no-preference' });
    const el = await widget(backend, 'checkout-id="chk_1"');
    // Without the preference the merchant's theme is theirs to animate.
    expect(motion(el).length).to.be.greaterThan(0);
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(motion(el)).to.deep.equal([]);
  });
});
