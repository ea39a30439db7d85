// axe in every state of every payment method, in three locales:
// empty, error, filled, submitting, then what the method leads to (success,
// 3DS challenge, bank redirect, boleto voucher) and a confirmed failure.
import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PaymentWidget } from '../../../src/index.ts';
import { loadStrings } from '../../../src/widget/locales/all.ts';
import type { Strings } from '../../../src/widget/locales/en.ts';
import { until } from '../../shared/until.ts';
import { $, errorReply, FakeBackend, paste, type Reply, widget } from '../widget/fake-backend.ts';
import { describeViolations, runAxe } from './axe.ts';

const LOCALES = ['en-GB', 'de-DE', 'pt-BR'] as const;
const METHODS = ['card', 'ideal', 'bancontact', 'blik', 'boleto'] as const;
type Method = (typeof METHODS)[number];

const VALUES: Record<string, string> = {
  number: '4200000000000091',
  expiry: '12/34',
  cvv: '123',
  name: 'Ana Silva',
  firstName: 'Ana',
  lastName: 'Silva',
  email: 'ana@example.com',
  taxId: '123.456.789-09',
  line1: 'Rua A 1',
  city: 'São Paulo',
  state: 'SP',
  postalCode: '01000-000',
};

/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;

async function accessible(el: PaymentWidget, state: string): Promise<void> {
  await el.updateComplete;
  // The challenge page inside the iframe is the card issuer's, not ours: axe checks
  // the frame element (its title) and leaves its document alone.
  const results = await runAxe(el, { iframes: false });
  expect(describeViolations(results), state).to.deep.equal([]);
  expect(results.passes.length, `${state}: axe checked nothing`).to.be.greaterThan(2);
}

function chooseMethod(el: PaymentWidget, method: Method): Promise<boolean> {
  const radios = el.shadowRoot?.querySelectorAll<HTMLInputElement>('input[name=method]') ?? [];
  radios[METHODS.indexOf(method)]?.click();
  return el.updateComplete;
}

async function fill(el: PaymentWidget): Promise<void> {
  for (const input of el.shadowRoot?.querySelectorAll<HTMLInputElement>('input[data-field]') ??
    []) {
    const value = VALUES[input.id];
    if (value !== undefined) paste(input, value);
    input.blur();
  }
  await el.updateComplete;
}

const outcomeText = (el: PaymentWidget) =>
  (el.shadowRoot?.querySelector('[part~=outcome]')?.textContent ?? '').trim();

for (const locale of LOCALES) {
  describe(`a11y in ${locale}`, () => {
    let backend: FakeBackend;
    let s: Strings;
    before(async () => {
      s = await loadStrings(locale);
    });
    beforeEach(() => {
      backend = new FakeBackend();
      backend.methods = [...METHODS];
      backend.checkout = {
        ...backend.checkout,
        currency: 'BRL',
        redirect_url: 'https://shop.example/return',
      };
    });
    afterEach(() => backend.restore());

    const open = async (attributes = '') => {
      const el = await widget(backend, `checkout-id="chk_1" locale="${locale}" ${attributes}`);
      el.navigate = () => {};
      await until(
        'the strings',
        () => el.shadowRoot?.textContent?.includes(s.paymentMethod) === true,
      );
      return el;
    };

    for (const method of METHODS) {
      it(`${method}: empty, error, filled, submitting and what follows are axe clean`, async () => {
        let release: (reply: Reply) => void = () => {};
        backend.process = () => new Promise<Reply>((resolve) => (release = resolve));
        const el = await open('challenge="iframe"');
        await chooseMethod(el, method);
        await accessible(el, 'empty');

        const invalid = oneEvent(el, 'payment-invalid');
        void el.submit();
        await invalid;
        await el.updateComplete;
        expect(el.shadowRoot?.querySelectorAll('[aria-invalid=true]').length).to.be.greaterThan(0);
        expect($(el, '[part~=status]').textContent?.trim()).to.equal(s.fixFields);
        await accessible(el, 'error');

        await fill(el);
        expect(el.shadowRoot?.querySelectorAll('[aria-invalid=true]').length).to.equal(0);
        await accessible(el, 'filled');

        const submitted = oneEvent(el, 'payment-submit');
        void el.submit();
        await submitted;
        await el.updateComplete;
        expect($(el, 'form').getAttribute('aria-busy')).to.equal('true');
        expect($(el, 'button[type=submit]').textContent?.trim()).to.equal(s.processing);
        await accessible(el, 'submitting');

        if (method === 'card') {
          const challenge = oneEvent(el, 'payment-challenge');
          release({
            status: 202,
            body: {
              next_step: {
                url: ACS,
                method: 'GET',
                payload: { PaReq: 'p', MD: 'm', TermUrl: ACS },
              },
            },
          });
          await challenge;
          await el.updateComplete;
          const frame = $(el, 'iframe');
          // The frame's title is how a screen reader names what is inside.
          expect(frame.title).to.equal(s.challengeTitle);
          await accessible(el, 'challenge');
          const paid = oneEvent(el, 'payment-success');
          backend.checkout = { ...backend.checkout, status: 'PAID' };
          // The confirm loop asks the backend again (about every 2 s): its answer decides.
          await paid;
          await el.updateComplete;
          expect(outcomeText(el)).to.equal(s.success);
          await accessible(el, 'success');
        } else if (method === 'boleto') {
          const pending = oneEvent(el, 'payment-pending');
          backend.checkout = {
            ...backend.checkout,
            boleto: {
              barcode: '34191790010104351004791020150008291070026000',
              url: 'https://bank.example/boleto.pdf',
            },
          };
          release({ status: 200, body: backend.checkout });
          await pending;
          await el.updateComplete;
          expect($(el, '[part~=voucher]').textContent).to.include(s.voucherTitle);
          await accessible(el, 'voucher');
        } else {
          const redirect = oneEvent(el, 'payment-challenge');
          release({
            status: 202,
            body: {
              next_step: {
                url: 'https://bank.example/pay',
                method: 'GET',
                full: 'https://bank.example/pay?c=1',
              },
            },
          });
          expect((await redirect).detail.mode).to.equal('redirect');
          await el.updateComplete;
          await accessible(el, 'redirecting');
        }
        el.remove();
      });
    }

    it('success and failure confirmed on return from a bank are axe clean', async () => {
      for (const status of ['PAID', 'FAILED'] as const) {
        backend.checkout = { ...backend.checkout, status };
        const el = await widget(backend, `checkout-id="chk_1" locale="${locale}"`, {
          waitFor: status === 'PAID' ? 'payment-success' : 'payment-failure',
        });
        await el.updateComplete;
        expect(outcomeText(el)).to.equal(status === 'PAID' ? s.success : s.failure);
        await accessible(el, status);
        el.remove();
      }
    });

    it('a card declined after submit shows the failure, axe clean', async () => {
      backend.process = () => {
        backend.checkout = { ...backend.checkout, status: 'FAILED' };
        return { status: 200, body: backend.checkout };
      };
      const el = await open();
      await chooseMethod(el, 'card');
      await fill(el);
      const failed = oneEvent(el, 'payment-failure');
      void el.submit();
      await failed;
      await el.updateComplete;
      expect(outcomeText(el)).to.equal(s.failure);
      await accessible(el, 'failure');
    });

    it('a backend error leaves the form with the reason in the live region, axe clean', async () => {
      backend.process = () => errorReply(502, 'PROVIDER_UNREACHABLE', 'down');
      const el = await open();
      await chooseMethod(el, 'card');
      await fill(el);
      const error = oneEvent(el, 'payment-error');
      void el.submit();
      await error;
      await el.updateComplete;
      const status = $(el, '[part~=status]');
      expect(status.getAttribute('role')).to.equal('status');
      expect(status.textContent?.trim()).to.equal(s.errBackend);
      await accessible(el, 'backend error');
    });

    it("the voucher's copy button says what it copied, in a live region", async () => {
      backend.process = () => {
        backend.checkout = {
          ...backend.checkout,
          boleto: { barcode: '34191790010104351004791020150008291070026000' },
        };
        return { status: 200, body: backend.checkout };
      };
      const el = await open();
      await chooseMethod(el, 'boleto');
      await fill(el);
      const pending = oneEvent(el, 'payment-pending');
      void el.submit();
      await pending;
      await el.updateComplete;
      const copy = $(el, '[part~=voucher-copy]');
      expect(copy.textContent?.trim()).to.equal(s.copy);
      const live = $(el, '.voucher [role=status]');
      expect(live.textContent).to.equal('');
      // A real key press: the clipboard wants a user gesture.
      copy.focus();
      await sendKeys({ press: 'Enter' });
      await until('the copy to be announced', () => live.textContent !== '');
      expect(live.textContent).to.equal(s.copied);
      await accessible(el, 'voucher copied');
    });
  });
}
