import { isServer, type ReactiveController } from 'lit';
import { isFinalStatus } from '../../domain/checkout.ts';
import { emit } from '../events.ts';
import type { FormController } from '../form/controller.ts';
import type { Values } from '../form/fields.ts';
import type { LocaleController } from '../locales/controller.ts';
import type { Strings } from '../locales/en.ts';
import type { PartsController } from '../parts/controller.ts';
import { expectedMethods, type Lifecycle, namedMethods, type Payable } from '../state.ts';
import { arriveAt, methodsToOffer } from './arrive.ts';
import { paymentMethods } from './backend.ts';
import type { CheckoutHost, PayContext } from './context.ts';

/**
 * The checkout's lifecycle, through the merchant's companion handler: load the checkout
 * and what it may be paid with, and show the form. It owns the lifecycle, where the
 * payment stands.
 *
 * What happens from Pay to the outcome (validate, process, recover from a 409 or a lost
 * answer, run the next step, show the confirmed checkout, say what went wrong) is the pay
 * part's (./pay.ts, ./steps.ts, ./outcome.ts, ./report.ts), which is asked for beside the
 * checkout, outside the form's first paint, and acts through this controller as a
 * PayContext (./context.ts); so is a step the checkout left open (a reload mid-challenge),
 * shown again once the part is in.
 * Every outcome it reports was read back from the backend.
 */
export class CheckoutController implements ReactiveController, PayContext {
  private _lifecycle: Lifecycle = { kind: 'loading' };
  private _loadAbort: AbortController | undefined;
  private _inFlight: Promise<void> | undefined;
  /** The next step on screen (a challenge, a voucher): aborted when it goes away. */
  stepAbort: AbortController | undefined;
  /** What a failure kept of the form for the basket's next checkout (the pay part's). */
  kept: Values = {};
  /**
   * The next load follows "Try another card" (the pay part's retry()): it offers a card, not
   * every method the backend has (a result page names none, and the shopper asked for a
   * card). "Try another way to pay" offers every method. Each load until the form shows.
   */
  cardOnly = false;

  readonly host: CheckoutHost;
  readonly form: FormController;
  readonly locale: LocaleController;
  readonly parts: PartsController;

  constructor(
    host: CheckoutHost,
    others: { form: FormController; locale: LocaleController; parts: PartsController },
  ) {
    this.host = host;
    ({ form: this.form, locale: this.locale, parts: this.parts } = others);
    host.addController(this);
  }

  /** Where the payment stands. */
  get lifecycle(): Lifecycle {
    return this._lifecycle;
  }

  /** Moves the lifecycle on, and the element renders it. */
  to(next: Lifecycle): void {
    this._lifecycle = next;
    this.host.requestUpdate();
  }

  /** The companion handler's base URL. */
  get endpoint(): string {
    return this.host.endpoint || '/payments';
  }

  /** The words on screen. */
  get strings(): Strings {
    return this.locale.strings;
  }

  /** Left the page: still off it once the task that took it off was over (hostDisconnected). */
  private _left = false;

  hostConnected(): void {
    const now = this._lifecycle as { kind: string; retrying?: boolean };
    // Put back after it left: it loads afresh, and shows its checkout as it is now (what
    // it told the page already is not told again: ./outcome.ts). A payment out shows its own
    // answer, and an outcome stays (only "Try another card" out loads on).
    if (this._left && !this._inFlight && (now.kind !== 'done' || now.retrying)) void this.load();
    this._left = false;
  }

  hostDisconnected(): void {
    // Only an element still off the page once the task that took it off is over has left it:
    // one moved (a framework re-parenting it, a keyed list, a modal's content moved) is back
    // by then, as if untouched. One that left stops its load and its step, and forgets what
    // was typed: put back, it is a fresh form, the card's mark and checks with it.
    setTimeout(() => {
      if (!this.host.isConnected) {
        this._left = true;
        this._stop();
        this.form.reset();
      }
    });
  }

  private _stop(): void {
    this._loadAbort?.abort();
    this.stepAbort?.abort();
  }

  /** Loads the checkout (or creates it from the order), its methods and saved cards. */
  async load(): Promise<void> {
    const host = this.host;
    const cardOnly = this.cardOnly;
    // Another checkout loads (a new order, a new id): a challenge left on screen goes with its
    // checkout, and what it ends in is not this one's outcome.
    this._stop();
    const controller = new AbortController();
    this._loadAbort = controller;
    const { signal } = controller;
    // After an outcome ("Try another card", or the page names another checkout) the outcome
    // stays until the next form shows: it is not a form to draw a placeholder of.
    if (this._lifecycle.kind !== 'done') this.to({ kind: 'loading' });
    // The placeholder shown meanwhile is the form of the method expected first.
    this.form.offer(expectedMethods(host.paymentMethods), []);
    this.form.setStatus('');
    // A server render (Lit SSR) draws that placeholder and asks the handler nothing. Lit's
    // Node build beside a DOM is a page's tests in jsdom or happy-dom, which would otherwise
    // wait on "Loading payment form…" without a word.
    if (isServer) {
      if (globalThis.document)
        console.warn(
          'payment-widget: Lit runs its server build here (Node beside a test DOM such as jsdom), so the widget only draws its placeholder: test your page in a browser (docs/sandbox.md)',
        );
      return;
    }
    const strings = this.locale.load();
    // The pay part, asked for beside the checkout rather than once the form shows: on a slow
    // network it arrives with the form, not seconds after (the form works without it meanwhile).
    // In the script-tag build its <script>, like a locale's, holds the page's `load` event
    // until it has come.
    void this.form.start();
    try {
      const endpoint = this.endpoint;
      const checkout = await arriveAt(endpoint, host, signal, (s) =>
        this.parts.load('pay').then((pay) => pay.pageSettled(s)),
      );
      await strings;
      // A widget stopped meanwhile (a file of its own cannot run) has no form to show.
      if (signal.aborted || this.parts.stopped) return;

      // Resume: back from a bank or 3DS page, or a reload, the checkout is already settled.
      if (isFinalStatus(checkout.status)) {
        const pay = await this.parts.need('pay');
        if (signal.aborted) return;
        if (pay) await pay.settle(this, checkout, true);
        else this._unreachable();
        return;
      }

      const customerId = host.customerId;
      const [offered, saved] = await Promise.all([
        paymentMethods(endpoint, checkout, signal),
        // Saved cards are a convenience: without them (or their part) the user types a card.
        customerId
          ? this.parts
              .load('pay')
              .then((pay) => pay.savedCards(endpoint, customerId, signal))
              .catch(() => [])
          : [],
      ]);
      if (signal.aborted) return;
      const named = cardOnly ? ['card'] : namedMethods(host.paymentMethods);
      const methods = methodsToOffer(offered, named, checkout);
      const cards = methods.includes('card') ? saved : [];
      this.form.offer(methods, cards);
      const payable: Payable = { checkout, methods, savedCards: cards };
      this.to({ kind: 'form', ...payable });
      await host.updateComplete;
      // A fresh form; after a failure, what the shopper typed besides the card is back.
      this.form.clear();
      this.parts.get('pay')?.restore(this);
      // Ready when it can be used: after its first paint, the card rules and Pay arrive.
      await this.form.ready();
      if (signal.aborted) return;
      emit(host, 'payment-ready', { paymentMethods: methods });
      // What of the page's settings the widget ignores is told, the page seen again from now
      // on reads the checkout back, and a step left open (a reload mid-challenge, back from
      // the bank's page) shows again.
      await this.parts.get('pay')?.shown(this, payable);
    } catch (error) {
      if (signal.aborted) return;
      await strings;
      // What went wrong is the pay part's to say (and what of the page's settings it ignores).
      const pay = await this.parts.need('pay');
      if (signal.aborted) return;
      if (pay) pay.fail(this, error);
      else this._unreachable();
    }
  }

  /** Validates, then pays. Calling it again while a payment is in flight returns the same promise. */
  submit(): Promise<void> {
    if (this._inFlight) return this._inFlight;
    // The pay part runs synchronously up to sending once it is here; only a payment that
    // got that far is in flight (a refused submit may be retried at once).
    const pay = this.parts.get('pay');
    const run = pay ? pay.pay(this) : this._payOnArrival();
    if (this._lifecycle.kind !== 'busy') return run;
    this._inFlight = run.finally(() => {
      this._inFlight = undefined;
    });
    return this._inFlight;
  }

  /**
   * Pay pressed before the pay part has come (on a slow network it arrives after the form):
   * the form is busy at once, "Processing…" as while paying, and a second press pays nothing
   * more (submit()); once the part is here it pays, or says what to fix. A part that cannot
   * come leaves the form as it was, and the widget says so with "Try again" (the page hears).
   */
  private _payOnArrival(): Promise<void> {
    const form = this._lifecycle;
    if (form.kind === 'form') this.to({ ...form, kind: 'busy' });
    return this.parts.need('pay').then((part) => {
      // Still this wait's (a load meanwhile, for another checkout, is not paid).
      if (this._lifecycle.kind === 'busy') this.to(form);
      return part?.pay(this);
    });
  }

  /**
   * Nothing to pay, and the pay part, which says why, could not come (the network that
   * failed kept it away too): the widget says it cannot reach the payment service, with
   * "Try again"; the page heard of it as the part failed (the parts controller's need()).
   */
  private _unreachable(): void {
    this.to({ kind: 'broken', retryable: true });
  }
}
