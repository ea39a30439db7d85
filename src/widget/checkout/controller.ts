import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isFinalStatus } from '../../domain/checkout.ts';
import type {
  Action,
  ChallengeMode,
  CheckoutView,
  NextStepContext,
} from '../../next-step/types.ts';
import type { PublicCheckout } from '../../schemas/checkout.ts';
import { isRecord } from '../../shared/record.ts';
import { challengeMode, diagnoseSettings } from '../diagnose.ts';
import { emit } from '../events.ts';
import type { FormController } from '../form/controller.ts';
import type { Shown } from '../form/fields.ts';
import type { LocaleController } from '../locales/controller.ts';
import { en, type StringName } from '../locales/en.ts';
import type { PartsController } from '../parts/controller.ts';
import { expectedMethods, type Lifecycle, namedMethods, type Payable } from '../state.ts';
import { arriveAt, methodsToOffer } from './arrive.ts';
import {
  asBackendError,
  BackendError,
  getCheckout,
  paymentMethods,
  processCheckout,
  retryCheckout,
  savedCards,
} from './backend.ts';
import { buildProcessBody } from './body.ts';
import { readBack } from './read-back.ts';
import { refuseInvalid, reportError } from './report.ts';
import { type StepPart, showStep, stepLeftOpen } from './steps.ts';
import { outcomeOf, stepOf } from './words.ts';

/** What the checkout controller reads from, and writes to, its element. */
interface CheckoutHost extends ReactiveControllerHost, HTMLElement, Shown {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly hasUpdated: boolean;
  checkoutId: string | undefined;
  order: unknown;
  endpoint: string;
  paymentMethods: string | undefined;
  customerId: string | undefined;
  saveCard: boolean;
  challenge: ChallengeMode;
  navigate: NextStepContext['navigate'];
}

/**
 * The checkout's lifecycle, through the merchant's companion handler: load the checkout and
 * what it may be paid with, submit (validate, process, confirm), recover from a 409, run the
 * next step and show the confirmed outcome. It owns the lifecycle, where the payment stands;
 * every outcome it reports was read back from the backend.
 */
export class CheckoutController implements ReactiveController {
  private _lifecycle: Lifecycle = { kind: 'loading' };
  private _loadAbort: AbortController | undefined;
  private _stepAbort: AbortController | undefined;
  private _inFlight: Promise<void> | undefined;

  private readonly _host: CheckoutHost;
  private readonly _form: FormController;
  private readonly _locale: LocaleController;
  private readonly _parts: PartsController;

  constructor(
    host: CheckoutHost,
    others: { form: FormController; locale: LocaleController; parts: PartsController },
  ) {
    this._host = host;
    ({ form: this._form, locale: this._locale, parts: this._parts } = others);
    host.addController(this);
  }

  /** Where the payment stands. */
  get lifecycle(): Lifecycle {
    return this._lifecycle;
  }

  /** Moves the lifecycle on, and the element renders it. */
  private _to(next: Lifecycle): void {
    this._lifecycle = next;
    this._host.requestUpdate();
  }

  hostConnected(): void {
    // Re-attached after a move in the DOM: disconnecting aborted the load or the
    // challenge, so start the load again, or show the form (still payable).
    const now = this._lifecycle;
    if (this._host.hasUpdated && now.kind === 'loading') void this.load();
    if (now.kind === 'step') this._to({ ...now, kind: 'form' });
    document.addEventListener('visibilitychange', this._recheck);
    addEventListener('pageshow', this._recheck);
  }

  hostDisconnected(): void {
    this._loadAbort?.abort();
    this._stepAbort?.abort();
    document.removeEventListener('visibilitychange', this._recheck);
    removeEventListener('pageshow', this._recheck);
  }

  /**
   * The page is seen again (back from the bank's app, another tab, the back-forward cache):
   * while the form or a step shows, or a voucher waits, the checkout may have changed elsewhere
   * (paid in the bank's app or another tab, deactivated as the basket changed): read it back.
   */
  private readonly _recheck = (event: Event): void => {
    const now = this._lifecycle;
    if (document.hidden || (event.type === 'pageshow' && !(event as PageTransitionEvent).persisted))
      return;
    if (!('checkout' in now) || !now.checkout.id || now.kind === 'done' || now.kind === 'busy')
      return;
    // Back by the back-forward cache from the page a step went to (a bank's, a full-page
    // challenge): loaded again, the step shows again, or the form, or the outcome.
    if (event.type === 'pageshow' && now.kind === 'step') return void this.load();
    getCheckout(this._endpoint, now.checkout.id).then((checkout) => {
      // Unless something else moved the widget meanwhile.
      if (this._lifecycle === now && isFinalStatus(checkout.status))
        void this._settle(checkout, true);
    }, String);
  };

  /**
   * "Try another card" (or "Try another way to pay"): the basket's next checkout, with the
   * name and email kept.
   */
  async retry(): Promise<void> {
    const now = this._lifecycle;
    if (now.kind !== 'done' || !now.checkout.id) return;
    // Loading at once: the button is gone, so a second press cannot ask for a second checkout.
    this._to({ kind: 'loading' });
    // After a bank's page or a boleto the shopper asked for another way to pay, not a card.
    this._cardOnly = now.offer === 'tryAnotherCard';
    try {
      this._host.checkoutId = (await retryCheckout(this._endpoint, now.checkout.id)).id;
    } catch (error) {
      this._to(now);
      this._report(error);
    }
  }

  private get _endpoint(): string {
    return this._host.endpoint || '/payments';
  }

  /**
   * The next load follows "Try another card": it offers a card, not every method the backend
   * has (a result page names none, and the shopper asked for a card). "Try another way to
   * pay" offers every method.
   */
  private _cardOnly = false;

  /** Loads the checkout (or creates it from the order), its methods and saved cards. */
  async load(): Promise<void> {
    const host = this._host;
    const cardOnly = this._cardOnly;
    this._cardOnly = false;
    this._loadAbort?.abort();
    const controller = new AbortController();
    this._loadAbort = controller;
    const { signal } = controller;
    this._to({ kind: 'loading' });
    // The placeholder shown meanwhile is the form of the method expected first.
    this._form.offer(expectedMethods(host.paymentMethods), []);
    this._form.setStatus('');
    const strings = this._locale.load();
    try {
      const endpoint = this._endpoint;
      const checkout = await arriveAt(endpoint, host, signal);
      await strings;
      if (signal.aborted) return;
      // Resume: back from a bank or 3DS page, or a reload, the checkout is already settled.
      if (isFinalStatus(checkout.status)) {
        await this._parts.load('outcome').catch(() => undefined);
        if (signal.aborted) return;
        await this._settle(checkout, true);
        return;
      }

      const [offered, saved] = await Promise.all([
        paymentMethods(endpoint, checkout, signal),
        // Saved cards are a convenience: without them the user types a card.
        host.customerId
          ? savedCards(endpoint, host.customerId, signal).catch(() => [])
          : Promise.resolve([]),
      ]);
      if (signal.aborted) return;
      const named = cardOnly ? ['card'] : namedMethods(host.paymentMethods);
      diagnoseSettings(host.paymentMethods, host.challenge);
      const methods = methodsToOffer(offered, named, checkout);
      const cards = methods.includes('card') ? saved : [];
      // Shown with the form, or the form would grow under the shopper's eyes.
      if (cards.length > 0) await this._parts.load('saved-cards');
      // A step left open (a reload mid-challenge, back from the bank's page) shows again.
      const open = await stepLeftOpen(checkout, this._parts, challengeMode(host.challenge));
      if (signal.aborted) return;
      this._form.offer(methods, cards);
      const payable: Payable = { checkout, methods, savedCards: cards };
      this._to({ kind: 'form', ...payable });
      await host.updateComplete;
      // Another card after a failure: what the shopper typed besides the card stays.
      this._form.restore();
      emit(host, 'payment-ready', { paymentMethods: methods });
      if (open) await this._runStep(open.step, open.action, payable);
    } catch (error) {
      if (signal.aborted) return;
      await strings;
      this._fail(error);
    }
  }

  /** Validates, then pays. Calling it again while a payment is in flight returns the same promise. */
  submit(): Promise<void> {
    if (this._inFlight) return this._inFlight;
    const run = this._pay();
    // _pay() runs synchronously up to sending; only a payment that got that far
    // is in flight (a refused submit may be retried at once).
    if (this._lifecycle.kind !== 'busy') return run;
    this._inFlight = run.finally(() => {
      this._inFlight = undefined;
    });
    return this._inFlight;
  }

  /** Leaves a next step on screen (a challenge) for the form, still payable. */
  leaveStep(): void {
    const now = this._lifecycle;
    if (now.kind !== 'step') return;
    this._stepAbort?.abort();
    this._to({ ...now, kind: 'form' });
  }

  private async _pay(): Promise<void> {
    const host = this._host;
    const form = this._form;
    const payable = this._lifecycle;
    if (payable.kind !== 'form' || !payable.checkout.id) return;
    const { checkout } = payable;
    const id = payable.checkout.id;
    // Checked synchronously: submit() relies on _pay() reaching 'busy' before it awaits.
    const invalid = form.check();
    if (invalid.length > 0) return refuseInvalid(host, form, invalid, this._locale.strings);

    const method = form.method;
    const saved = host.customerId ? form.savedCard() : undefined;
    const body = buildProcessBody(
      {
        method,
        values: form.values(),
        saved: saved ? { token: saved.token, customerId: host.customerId ?? '' } : undefined,
        saveCard: host.saveCard && form.saveCardTicked(),
        userAgent: navigator.userAgent,
      },
      host,
    );
    form.setStatus('');
    // What shows when the answer comes, on its way meanwhile.
    this._parts.load('outcome').catch(() => undefined);
    this._parts.load('step').catch(() => undefined);
    this._to({ ...payable, kind: 'busy' });
    // A new attempt: no step yet (a challenge cancelled before is not this one's).
    stepOf(id, '');
    const sent = processCheckout(this._endpoint, id, body);
    // The card's last digits and network, never its number.
    const card = saved ?? { last4: body.card?.last_4_digits, network: form.network };
    const cardDetail = { last4: card.last4, network: card.network };
    emit(host, 'payment-submit', {
      paymentMethod: method,
      ...(method === 'card' ? cardDetail : {}),
    });
    try {
      const result = await sent;
      // Not over yet (a 3DS challenge, a bank, a boleto's voucher): the step part says what next.
      const step =
        result.status === 202 || (isRecord(result.body) && 'boleto' in result.body)
          ? await this._parts.load('step')
          : undefined;
      const action = step?.actionFor(result.status, result.body, {
        mode: challengeMode(host.challenge),
        hasRedirectUrl: Boolean(checkout.redirect_url),
        paymentMethod: method,
      });
      if (step && action) return await this._runStep(step, action, payable);
      if (result.status === 202) {
        throw new BackendError('INVALID_NEXT_STEP', en.errBackend, 202, false);
      }
      // A 200 is not the proof: the backend confirms by reading the checkout again.
      await this._settle(await getCheckout(this._endpoint, id));
    } catch (error) {
      // 409: the checkout can no longer be processed (paid, expired or failed
      // meanwhile, perhaps in another tab). Its status is the answer, and a paid
      // checkout is never reported as anything else.
      if (error instanceof BackendError && error.status === 409) {
        const now = await getCheckout(this._endpoint, id).catch(() => undefined);
        if (now && isFinalStatus(now.status)) return this._settle(now);
        // Still open, yet refused (past valid_until, say): trying again cannot
        // help, so the form goes and the shopper is sent back to the shop.
        if (now) return this._fail(error, false, 'noLongerValid');
      }
      // No answer, or a fault on the way back: the provider may have charged the card all
      // the same. Ask for the checkout before saying anything; a paid checkout is never
      // shown as an error. Pending (or unreadable) means paying again is safe: the
      // provider refuses a second charge of one checkout, and the 409 above reads it.
      if (error instanceof BackendError && (error.status === 0 || error.status >= 500)) {
        const now = await readBack(() => getCheckout(this._endpoint, id));
        if (now && isFinalStatus(now.status)) return this._settle(now);
        // The provider may have taken the payment: never Pay again for this checkout. It
        // stays pending, read back until its outcome is known.
        if (error.code === 'PROCESS_OUTCOME_UNKNOWN') {
          this._report(error);
          return this._settle(now ?? payable.checkout);
        }
      }
      this._to({ ...payable, kind: 'form' });
      this._report(error);
    }
  }

  private async _runStep(step: StepPart, action: Action, payable: Payable): Promise<void> {
    const host = this._host;
    const id = payable.checkout.id as string;
    // Removed from the page while the process request was out: nobody is looking, so no
    // challenge shows and the page is not navigated away from under what the shop shows now.
    // Attached again, the form is still payable.
    if (!host.isConnected) {
      this._to({ ...payable, kind: 'form' });
      return;
    }
    this._stepAbort?.abort();
    const controller = new AbortController();
    this._stepAbort = controller;
    this._to({ ...payable, kind: 'step' });
    const outcome = await showStep(step, action, host, id, {
      confirm: (signal) => getCheckout(this._endpoint, id, signal),
      // A challenge shown in the iframe on a checkout with a redirect_url ends at the
      // handler's return page: its origin is trusted like the provider's.
      ...(payable.checkout.redirect_url
        ? { returnOrigin: new URL(this._endpoint, location.href).origin }
        : {}),
      onChallenge: (detail) => emit(host, 'payment-challenge', detail),
      t: (key) => this._locale.strings[key],
      signal: controller.signal,
      ...(host.navigate ? { navigate: host.navigate } : {}),
    });
    if (!outcome) return;
    if (outcome.kind === 'final' || outcome.kind === 'pending')
      await this._settle(outcome.checkout);
    else if (outcome.kind === 'navigating') this._form.setStatus('');
    else {
      // Cancelled, or refused: the form again, still payable.
      controller.abort();
      this._to({ ...payable, kind: 'form' });
      if (outcome.kind === 'refused') {
        this._report(new BackendError(outcome.code, outcome.message, 0, false));
      }
    }
  }

  /**
   * Shows a confirmed checkout and tells the merchant; the card number and CVV are wiped.
   * `resumed`: it was settled before this page showed it (a reload, the bank's app, a tab).
   */
  private async _settle(checkout: CheckoutView, resumed?: boolean): Promise<void> {
    const host = this._host;
    // Shown with its words, so the page does not move twice; a part that cannot load is
    // said in the widget, with "Try again" (show()).
    await this._parts.load('outcome').catch(() => undefined);
    this._parts.show('outcome');
    this._form.setStatus('');
    const status = String(checkout.status);
    if (isFinalStatus(status)) {
      this._stepAbort?.abort();
      const paid = status === 'PAID';
      this._form.keep(!paid);
      this._to(outcomeOf(checkout));
      // The handler's answer, as its route types it (the widget reads only a few fields).
      emit(host, paid ? 'payment-success' : 'payment-failure', {
        checkout: checkout as PublicCheckout,
        ...(resumed && { resumed }),
      });
    } else {
      this._to({ kind: 'pending', checkout });
      emit(host, 'payment-pending', { checkout: checkout as PublicCheckout });
    }
  }

  /** Nothing to pay: the form goes, and the retry button shows if trying again may help. */
  private _fail(error: unknown, retryable?: boolean, key?: StringName): void {
    const e = asBackendError(error);
    this._to({ kind: 'broken', retryable: retryable ?? e.retryable });
    this._report(e, retryable, key);
  }

  /** Puts an error in the live region (`key`'s text if given) and emits payment-error. */
  private _report(error: unknown, retryable?: boolean, key?: StringName): void {
    const show = (sentence: string) => this._form.setStatus(sentence);
    reportError(this._host, show, this._locale.strings, asBackendError(error), retryable, key);
  }
}
