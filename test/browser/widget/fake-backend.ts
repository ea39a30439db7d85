// A stand-in for the merchant's companion handler: window.fetch is replaced for
// the length of a test and answers the routes the element calls, recording
// every request so tests can assert what was sent (and how often). Every answer
// is checked against what the real handler can answer (test/shared/handler-answers.ts):
// one it cannot give fails the test, unless the reply says who else would send it.

import { fixture, html, oneEvent } from '@open-wc/testing';
import '../../../src/index.ts';
import type { HandlerErrorCode } from '../../../src/domain/errors.ts';
import { handlerErrorBody } from '../../../src/http/errors.ts';
import type { PaymentWidget } from '../../../src/index.ts';
import { WIDGET_EVENTS } from '../../shared/events.ts';
import { notAHandlerAnswer } from '../../shared/handler-answers.ts';

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The `X-Request-Id` the widget sent. */
  requestId: string | undefined;
}

export interface Reply {
  status: number;
  body: unknown;
  /** Beside `content-type`, e.g. a 429's `retry-after`. */
  headers?: Record<string, string>;
  /**
   * Who sends this answer when the handler cannot (a proxy's HTML error page, a broken
   * handler): the answer is then not checked against the handler's.
   */
  notFromHandler?: string;
}

export type Checkout = Record<string, unknown> & { id: string; status: string };

/**
 * An error answer exactly as the handler writes it (the same function builds both), so a
 * test sees what the widget does with the real contract: the code, and `retryable` as the
 * server decided it (the code's usual value unless given).
 */
export function errorReply(
  status: number,
  code: HandlerErrorCode,
  message: string,
  {
    field,
    retryable,
    headers,
  }: { field?: string; retryable?: boolean; headers?: Record<string, string> } = {},
): Reply {
  return { status, body: handlerErrorBody(code, message, field, retryable), headers };
}

export class FakeBackend {
  calls: Call[] = [];
  checkout: Checkout = {
    id: 'chk_1',
    status: 'PENDING',
    amount: 10,
    currency: 'EUR',
    checkout_reference: 'order-1',
    merchant_code: 'MSANDBOX1',
  };
  methods: string[] = ['card'];
  instruments: unknown[] = [];
  /** What PUT answers; by default the checkout becomes PAID. */
  process: (body: unknown) => Reply | Promise<Reply> = () => {
    this.checkout = { ...this.checkout, status: 'PAID' };
    return { status: 200, body: this.checkout };
  };
  /** What POST /checkouts/:id/retry answers: by default the basket's next checkout, `chk_2`. */
  retry: () => Reply = () => {
    this.checkout = { ...this.checkout, id: 'chk_2', status: 'PENDING' };
    return { status: 201, body: this.checkout };
  };
  /**
   * Per-route overrides: "GET /checkouts/chk_1" -> a reply, a thrown network error, or a
   * promise that never settles (a backend that hangs: only the widget's abort ends it).
   */
  overrides = new Map<string, () => Reply | Promise<Reply>>();

  /** The calls the widget aborted before their answer (`GET /checkouts/chk_1`), in order. */
  aborted: string[] = [];

  /** Answers the handler cannot give that a test sent anyway: `restore()` fails on them. */
  private notHandlerAnswers: string[] = [];

  private original = window.fetch;

  constructor() {
    // A fresh tab for each test: no step another test ran on `chk_1` is remembered.
    sessionStorage.clear();
  }

  install(): this {
    window.fetch = (input, init) => this.handle(input, init);
    return this;
  }

  restore(): void {
    window.fetch = this.original;
    if (this.notHandlerAnswers.length > 0) {
      throw new Error(`answers the handler cannot give:\n${this.notHandlerAnswers.join('\n')}`);
    }
  }

  puts(): Call[] {
    return this.calls.filter((c) => c.method === 'PUT');
  }

  /**
   * Answers a payment with a 202 and `nextStep` (the provider asks for a 3DS challenge), which
   * the handler gives back beside the checkout from then on.
   */
  asksFor(nextStep: Record<string, unknown>): void {
    this.process = () => {
      this.checkout = { ...this.checkout, next_step: nextStep, payment_type: 'card' };
      return { status: 202, body: { next_step: nextStep } };
    };
  }

  /** Offers `methods` (the card and boleto), and answers a payment with an issued voucher. */
  issuesBoleto(methods = ['card', 'boleto']): void {
    this.methods = methods;
    this.process = () => {
      this.checkout = {
        ...this.checkout,
        boleto: { barcode: '12345678901234567890', url: 'https://bank.example/boleto.pdf' },
      };
      return { status: 200, body: this.checkout };
    };
  }

  private async handle(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(String(input), location.href);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/payments/, '');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const requestId = new Headers(init?.headers).get('x-request-id') ?? undefined;
    this.calls.push({ method, path, query: url.searchParams, body, requestId });
    const override = this.overrides.get(`${method} ${path}`);
    const answer = override ? override() : this.route(method, path, body, url.searchParams);
    // As a real fetch: an abort (the widget's time limit, or its own) rejects at once.
    const reply = await new Promise<Reply>((resolve, reject) => {
      const signal = init?.signal;
      const abort = () => {
        this.aborted.push(`${method} ${path}`);
        reject(new DOMException('The operation was aborted.', 'AbortError'));
      };
      if (signal?.aborted) abort();
      signal?.addEventListener('abort', abort);
      Promise.resolve(answer).then(resolve, reject);
    });
    const wrong = reply.notFromHandler
      ? undefined
      : notAHandlerAnswer(method, path, reply.status, reply.body, reply.headers);
    if (wrong) this.notHandlerAnswers.push(wrong);
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  }

  private async route(
    method: string,
    path: string,
    body: unknown,
    query: URLSearchParams,
  ): Promise<Reply> {
    if (method === 'POST' && path === '/checkouts') {
      return { status: 201, body: this.checkout };
    }
    if (method === 'POST' && /^\/checkouts\/[^/]+\/retry$/.test(path)) return this.retry();
    if (path === `/checkouts/${this.checkout.id}`) {
      if (method === 'GET') return { status: 200, body: this.checkout };
      if (method === 'PUT') return this.process(body);
    }
    if (method === 'GET' && path === '/payment-methods') {
      // As the handler: a checkout made to save the card is offered a card alone.
      const saving = query.get('purpose') === 'SETUP_RECURRING_PAYMENT';
      const methods = saving ? this.methods.filter((id) => id === 'card') : this.methods;
      return { status: 200, body: { available_payment_methods: methods.map((id) => ({ id })) } };
    }
    if (method === 'GET' && /^\/customers\/[^/]+\/payment-instruments$/.test(path)) {
      return { status: 200, body: this.instruments };
    }
    return errorReply(404, 'NOT_FOUND', `No route ${path}`);
  }
}

/** Renders a widget against `backend` and waits until it is ready (or failed). */
export async function widget(
  backend: FakeBackend,
  attributes = '',
  {
    waitFor = 'payment-ready',
  }: {
    waitFor?: 'payment-ready' | 'payment-error' | 'payment-success' | 'payment-failure' | 'none';
  } = {},
): Promise<PaymentWidget> {
  backend.install();
  // Attributes go in as markup: that is how a merchant writes them.
  const el = document.createElement('template');
  const locale = attributes.includes('locale=') ? '' : 'locale="en-GB"';
  el.innerHTML = `<payment-widget ${locale} ${attributes}></payment-widget>`;
  const node = el.content.firstElementChild as PaymentWidget;
  const ready = waitFor === 'none' ? undefined : oneEvent(node, waitFor);
  const rendered = await fixture<PaymentWidget>(html`${node}`);
  if (ready) await ready;
  await rendered.updateComplete;
  return rendered;
}

export function $(el: PaymentWidget, selector: string): HTMLInputElement {
  const found = el.shadowRoot?.querySelector<HTMLInputElement>(selector);
  if (!found) throw new Error(`${selector} not found`);
  return found;
}

export function text(el: PaymentWidget): string {
  return (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** What a paste (or an autofill) looks like to the element: one input event with the whole text. */
export function paste(input: HTMLInputElement, value: string): void {
  input.focus();
  input.value = value;
  if (input.type === 'text') input.setSelectionRange(value.length, value.length);
  input.dispatchEvent(
    new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertFromPaste' }),
  );
}

/** Fills a boleto's payer (all but the tax id, which each test types its own way). */
export function fillBoletoPayer(el: PaymentWidget): void {
  for (const [id, value] of [
    ['firstName', 'Ana'],
    ['lastName', 'Silva'],
    ['email', 'ana@example.com'],
    ['line1', 'Rua A 1'],
    ['city', 'São Paulo'],
    ['state', 'SP'],
    ['postalCode', '01000-000'],
  ] as const) {
    paste($(el, `#${id}`), value);
  }
}

/** Fills the card fields with a good card (a future expiry). */
export async function fillCard(
  el: PaymentWidget,
  { number = '4200000000000091', expiry = '12/34', cvv = '123', name = 'Ada Lovelace' } = {},
): Promise<void> {
  paste($(el, '#number'), number);
  paste($(el, '#expiry'), expiry);
  paste($(el, '#cvv'), cvv);
  paste($(el, '#name'), name);
  $(el, '#name').blur();
  await el.updateComplete;
}

/**
 * A card filled in and paid, the backend declining it, then "Try another card": resolves with
 * the next checkout's `payment-ready` detail once the widget has drawn it.
 */
export async function declinedThenRetried(
  el: PaymentWidget,
): Promise<{ paymentMethods: readonly string[] }> {
  await fillCard(el);
  const failure = oneEvent(el, 'payment-failure');
  $(el, 'button[part~=button]').click();
  await failure;
  await el.updateComplete;
  const ready = oneEvent(el, 'payment-ready');
  $(el, 'button[part~=retry]').click();
  const { detail } = await ready;
  await el.updateComplete;
  return detail;
}

/**
 * Resolves once the task the test is in is over: an element taken off the page has left it
 * then (one put back before then was moved, as if untouched), so what it does on leaving is
 * done, and what a move would have caused has happened.
 */
export const taskOver = (): Promise<void> => new Promise((resolve) => setTimeout(resolve));

/** Every event `el` fires from now on, by name (payment-change left out: typing). */
export function record(el: HTMLElement): string[] {
  const seen: string[] = [];
  for (const name of WIDGET_EVENTS) {
    if (name !== 'payment-change') el.addEventListener(name, () => seen.push(name));
  }
  return seen;
}

/**
 * Answers `route` ("GET /checkouts/chk_1") when the test says; resolves once it is asked.
 * Held once: the route answers as before after that.
 */
export function held(backend: FakeBackend, route: string): Promise<(reply: Reply) => void> {
  return new Promise((asked) =>
    backend.overrides.set(route, () => {
      backend.overrides.delete(route);
      return new Promise<Reply>((resolve) => asked(resolve));
    }),
  );
}

/** The challenge page stand-in that web-test-runner serves. */
export const ACS = new URL('/test/browser/next-step/fixtures/challenge.html', location.href).href;

/**
 * A widget for `chk_1` whose Pay opened a 3-D Secure challenge in its frame: the element, and
 * the events it fired from the payment on.
 */
export async function challenged(
  backend: FakeBackend,
): Promise<{ el: PaymentWidget; events: string[] }> {
  backend.asksFor({ url: ACS, method: 'GET', payload: { PaReq: 'pareq-1', MD: 'md-1' } });
  const el = await widget(backend, 'checkout-id="chk_1"');
  const events = record(el);
  await fillCard(el);
  const challenge = oneEvent(el, 'payment-challenge');
  void el.submit();
  await challenge;
  return { el, events };
}
