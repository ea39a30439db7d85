// What each state tells the shopper about what happens next, and how it is drawn: "Payment
// successful" with the amount paid, "Payment pending" with what to expect, a step offered
// again with its amount and why, the in-widget challenge in a frame of its own, an outcome
// drawn as a status (never like a button), announced with its amount; and "Try another
// card" going straight from the outcome to the real form, with no placeholder between them.

import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../../src/index.ts';
import { loadStrings } from '../../../src/widget/locales/all.ts';
import { until } from '../../shared/until.ts';
import { $, errorReply, FakeBackend, fillCard, paste, text, widget } from './fake-backend.ts';

/** The challenge page stand-in that web-test-runner serves. */
const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;
const CHALLENGE = { url: ACS, method: 'GET', payload: { PaReq: 'p', MD: 'm', TermUrl: ACS } };

/** What the live region that announces the outcome holds, as a screen reader reads it. */
const announced = (el: PaymentWidget) =>
  ($(el, '[part~=outcome-region]').textContent ?? '').replace(/\s+/g, ' ').trim();

/** The drawn box around the outcome's words. */
const outcomeBox = (el: PaymentWidget) => $(el, '[part~=outcome]').closest('.outcome-box');

describe('payment-widget: what happens next', () => {
  let backend: FakeBackend;
  beforeEach(() => {
    backend = new FakeBackend();
  });
  afterEach(() => {
    backend.restore();
    sessionStorage.clear();
  });

  it('"Payment successful" says the amount paid, in the live region that announces it', async () => {
    const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
    await fillCard(el);
    const success = oneEvent(el, 'payment-success');
    $(el, 'button[part~=button]').click();
    await success;
    await el.updateComplete;
    const region = $(el, '[part~=outcome-region]');
    expect(region.getAttribute('role')).to.equal('status');
    expect(announced(el)).to.equal('Payment successful You paid €10.00');
    await expect(el).to.be.accessible();
  });

  it('in the shopper’s language and money: German', async () => {
    backend.checkout = { ...backend.checkout, status: 'PAID' };
    const el = await widget(backend, 'checkout-id="chk_1" locale="de-DE"', {
      waitFor: 'payment-success',
    });
    await until('the German words', () => announced(el).startsWith('Zahlung erfolgreich'));
    expect(announced(el)).to.equal('Zahlung erfolgreich Sie haben 10,00 € bezahlt');
  });

  it('an outcome is drawn as a status, not like the button under it', async () => {
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    await el.updateComplete;
    const box = outcomeBox(el) as HTMLElement;
    const drawn = getComputedStyle(box);
    const button = getComputedStyle($(el, 'button[part~=retry]'));
    // A bar at its start, no outline all round and no fill: a button is one or the other.
    expect(drawn.borderLeftWidth).to.equal('4px');
    for (const side of ['Top', 'Right', 'Bottom'] as const) {
      expect(drawn[`border${side}Style`], side).to.equal('none');
    }
    expect(drawn.backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    expect(button.backgroundColor).not.to.equal('rgba(0, 0, 0, 0)');
    expect(drawn.cursor).to.equal('auto');
    // Its mark says it without colour too, and is not read out twice.
    expect(box.querySelector('svg')?.getAttribute('aria-hidden')).to.equal('true');
    expect(announced(el)).to.equal('Payment failed Your card was declined');
  });

  it('"Payment pending" once the widget stopped asking: not to pay again, and how to see the outcome', async () => {
    backend.process = () =>
      errorReply(502, 'PROCESS_OUTCOME_UNKNOWN', 'the provider did not answer');
    const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
    await fillCard(el);
    const pending = oneEvent(el, 'payment-pending');
    $(el, 'button[part~=button]').click();
    await pending;
    await el.updateComplete;
    expect(announced(el)).to.equal(
      'Payment pending Your bank has not confirmed the payment yet. Do not pay again: reload this page later to see the outcome.',
    );
    await expect(el).to.be.accessible();
  });

  it('"Payment pending" beside a boleto: when its payment is confirmed', async () => {
    backend.methods = ['boleto'];
    backend.checkout = {
      ...backend.checkout,
      currency: 'BRL',
      redirect_url: 'https://shop.example/return',
    };
    backend.process = () => {
      backend.checkout = {
        ...backend.checkout,
        boleto: { barcode: '34191790010104351004791020150008291070026000' },
      };
      return { status: 200, body: backend.checkout };
    };
    const el = await widget(backend, 'checkout-id="chk_1" locale="pt-BR"');
    await until('the Brazilian words', () => text(el).includes('CPF ou CNPJ'));
    const values: Record<string, string> = {
      firstName: 'Ana',
      lastName: 'Silva',
      email: 'ana@example.com',
      taxId: '529.982.247-25',
      line1: 'Av. Paulista 1000',
      city: 'São Paulo',
      state: 'SP',
      postalCode: '01310-100',
    };
    for (const [id, value] of Object.entries(values)) paste($(el, `#${id}`), value);
    const pending = oneEvent(el, 'payment-pending');
    $(el, 'button[part~=button]').click();
    await pending;
    await el.updateComplete;
    const s = await loadStrings('pt-BR');
    expect(announced(el)).to.equal(`${s.pending} ${s.pendingVoucher}`);
  });

  it('a full-page step offered again: the amount and why, before the button that leads on', async () => {
    backend.checkout = {
      ...backend.checkout,
      redirect_url: 'https://shop.example/return',
      next_step: CHALLENGE,
      payment_type: 'card',
    };
    const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
    el.navigate = () => {};
    await until('the offer', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    const offer = $(el, '[part~=resume]');
    const why = $(el, '[part~=resume-why]');
    expect(why.textContent).to.equal(
      'Your payment of €10.00 is not finished: your bank needs you to confirm it.',
    );
    // Read first, then the button it explains.
    expect(offer.firstElementChild).to.equal(why);
    expect(why.nextElementSibling?.textContent).to.equal('Confirm the payment with your bank');
    await expect(el).to.be.accessible();
  });

  it('a step that cannot be shown again: "Payment pending" and what happens next, in one status', async () => {
    sessionStorage.setItem('payment-widget:step:chk_1', 'challenge-iframe');
    const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
    await until('the wait', () => Boolean(el.shadowRoot?.querySelector('[part~=resume]')));
    const status = $(el, '[part~=resume] [role=status]');
    expect([...status.querySelectorAll('p')].map((p) => p.textContent)).to.deep.equal([
      'Payment pending',
      'If your bank asks you to, confirm the payment in its app. This page updates by itself once your bank answers.',
    ]);
    // Drawn as the pending outcome is.
    expect(status.classList.contains('outcome-box')).to.equal(true);
    expect(getComputedStyle(status).borderLeftWidth).to.equal('4px');
    await expect(el).to.be.accessible();
  });

  it('the challenge in the widget sits in a frame of its own, headed by what it asks', async () => {
    backend.process = () => ({ status: 202, body: { next_step: CHALLENGE } });
    const el = await widget(backend, 'checkout-id="chk_1" locale="en-GB"');
    await fillCard(el);
    const challenge = oneEvent(el, 'payment-challenge');
    $(el, 'button[part~=button]').click();
    await challenge;
    const frame = $(el, 'iframe') as unknown as HTMLIFrameElement;
    const box = frame.closest<HTMLElement>('[part~=challenge-box]');
    expect(box, 'the box around the frame').to.not.equal(null);
    expect(frame.title).to.equal('Confirm the payment with your bank');
    expect(box?.querySelector('.challenge-head')?.textContent).to.equal(
      'Confirm the payment with your bank',
    );
    const drawn = getComputedStyle(box as HTMLElement);
    for (const side of ['Top', 'Right', 'Bottom', 'Left'] as const) {
      expect(drawn[`border${side}Style`], side).to.equal('solid');
    }
    await expect(el).to.be.accessible();
  });

  it('"Try another card" with the network gone: says so, a gap above the outcome, then tries again', async () => {
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    let offline = true;
    backend.overrides.set('POST /checkouts/chk_1/retry', () => {
      if (offline) throw new TypeError('Failed to fetch');
      return backend.retry();
    });
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    const error = oneEvent(el, 'payment-error');
    $(el, 'button[part~=retry]').click();
    expect((await error).detail.code).to.equal('NETWORK_ERROR');
    await el.updateComplete;
    const status = $(el, '[part~=status]');
    expect(status.textContent?.trim()).to.equal(
      'We could not reach the payment service. Check your connection and try again.',
    );
    // The message and the outcome under it are the widget's gap apart, as the button under
    // the outcome is: never touching.
    const apart =
      (outcomeBox(el) as HTMLElement).getBoundingClientRect().top -
      status.getBoundingClientRect().bottom;
    expect(`${apart}px`).to.equal(getComputedStyle($(el, 'button[part~=retry]')).marginTop);
    offline = false;
    const ready = oneEvent(el, 'payment-ready');
    $(el, 'button[part~=retry]').click();
    await ready;
    expect(el.checkoutId).to.equal('chk_2');
  });

  it('"Try another card": the outcome stays until the real form replaces it, never a placeholder', async () => {
    backend.checkout = { ...backend.checkout, status: 'FAILED' };
    const el = await widget(backend, 'checkout-id="chk_1"', { waitFor: 'payment-failure' });
    await el.updateComplete;
    // Everything the widget draws from the press on, render by render.
    const seen: string[] = [];
    const look = () => {
      const root = el.shadowRoot as ShadowRoot;
      if (root.querySelector('[part~=loading]') || root.querySelector('form[inert]'))
        seen.push('placeholder');
      else if (!$(el, 'form').hidden) seen.push('form');
      else if (root.querySelector('[part~=retry][aria-disabled=true]')) seen.push('outcome, busy');
      else if (root.querySelector('[part~=outcome]')) seen.push('outcome');
      else seen.push('nothing');
    };
    const watch = new MutationObserver(look);
    watch.observe(el.shadowRoot as ShadowRoot, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    const retry = $(el, 'button[part~=retry]');
    const ready = oneEvent(el, 'payment-ready');
    retry.click();
    await ready;
    watch.disconnect();
    look();
    // The outcome, its button busy once pressed (a second press asks for nothing more), then
    // the form; nothing else in between.
    const shown = seen.filter((state, i) => state !== seen[i - 1]);
    expect(shown).to.deep.equal(['outcome, busy', 'form']);
  });
});
