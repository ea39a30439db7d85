// Checkout status notifications: POST `{ event_type, id }` to the checkout's return_url,
// retried with exponential backoff until a 2xx or `attempts` run out. Delivery runs off the
// request path so a slow or dead merchant endpoint never delays an API response.

export interface WebhookOptions {
  /** Total tries including the first; default 6. */
  attempts?: number;
  /** Delay before the first retry; doubles each time. Default 500 ms (shortened for a sandbox). */
  initialDelayMs?: number;
  /** Upper bound of one delay; default 30 s. */
  maxDelayMs?: number;
}

/** One request may hang; this bounds how long a delivery attempt holds a socket. */
const ATTEMPT_TIMEOUT_MS = 5_000;

export class Webhooks {
  readonly #attempts: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #log: (line: string) => void;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(options: WebhookOptions, log: (line: string) => void) {
    this.#attempts = Math.max(1, options.attempts ?? 6);
    this.#initialDelayMs = Math.max(0, options.initialDelayMs ?? 500);
    this.#maxDelayMs = Math.max(this.#initialDelayMs, options.maxDelayMs ?? 30_000);
    this.#log = log;
  }

  /** Queue a CHECKOUT_STATUS_CHANGED notification; never throws, never waits. */
  checkoutStatusChanged(url: string | undefined, checkoutId: string): void {
    if (!url || this.#closed) return;
    const body = JSON.stringify({ event_type: 'CHECKOUT_STATUS_CHANGED', id: checkoutId });
    this.#schedule(url, body, 1, 0);
  }

  /** Queue any JSON notification (a reader checkout's result) with the same retries. */
  send(url: string, payload: unknown): void {
    if (this.#closed) return;
    this.#schedule(url, JSON.stringify(payload), 1, 0);
  }

  #schedule(url: string, body: string, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#deliver(url, body, attempt);
    }, delayMs);
    this.#timers.add(timer);
  }

  async #deliver(url: string, body: string, attempt: number): Promise<void> {
    if (this.#closed) return;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    let outcome: string;
    let ok = false;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'payment-sandbox-webhooks' },
        body,
        signal: controller.signal,
        redirect: 'manual',
      });
      await res.body?.cancel();
      ok = res.status >= 200 && res.status < 300;
      outcome = String(res.status);
    } catch (error) {
      outcome = error instanceof Error ? error.name : 'error';
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    if (this.#closed) return;
    this.#log(`webhook ${url} attempt ${attempt}/${this.#attempts}: ${outcome}`);
    if (ok || attempt >= this.#attempts) return;
    const delay = Math.min(this.#initialDelayMs * 2 ** (attempt - 1), this.#maxDelayMs);
    this.#schedule(url, body, attempt + 1, delay);
  }

  /** Drop queued retries and abort deliveries in flight (reset, close). */
  clear(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const c of this.#inFlight) c.abort();
    this.#inFlight.clear();
  }

  close(): void {
    this.#closed = true;
    this.clear();
  }
}
