// A provider that fails the way the real one, or the network to it, can: the handler's
// `provider.fetch`, answering each call from the sandbox unless a fault is set. What the
// handler makes of each failure is what it answers the widget with (its code, its status).
import { isRecord } from '../../../src/shared/record.ts';

/** How the next provider calls fail (those of `method` only, when it is given). */
export interface Fault {
  method?: string;
  /** An answer instead of the sandbox's, or a thrown error; undefined: the sandbox's, changed by `change`. */
  answer?: () => Response;
  /** The sandbox's answer, changed. */
  change?: (body: unknown) => unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A system error as Node's fetch throws it: its `cause` carries the code. */
function systemError(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

/** The failures, by the handler code each becomes on the routes that call the provider. */
export const FAULTS = {
  NOT_AUTHORIZED: {
    answer: () => json(401, { error_code: 'NOT_AUTHORIZED', message: 'Invalid API key' }),
  },
  FORBIDDEN: {
    answer: () => json(403, { error_code: 'FORBIDDEN', message: 'The key lacks this scope' }),
  },
  PROVIDER_ERROR: { answer: () => json(503, { message: 'Service unavailable' }) },
  PROVIDER_UNREACHABLE: {
    answer: () => {
      throw systemError('ECONNREFUSED');
    },
  },
  PROVIDER_TIMEOUT: {
    answer: () => {
      throw new DOMException('The operation timed out', 'TimeoutError');
    },
  },
  INVALID_PROVIDER_RESPONSE: {
    answer: () =>
      new Response('<html>Bad gateway</html>', { headers: { 'content-type': 'text/html' } }),
  },
} satisfies Record<string, Fault>;

/** On a payment: the connection reset once it was sent, and the read-back failing too. */
export const OUTCOME_LOST: Fault = {
  answer: () => {
    throw systemError('ECONNRESET');
  },
};

/** On a payment: a 3DS step whose URL no browser may be sent to. */
export const UNSAFE_STEP: Fault = {
  method: 'PUT',
  change: (body) =>
    isRecord(body) && isRecord(body.next_step)
      ? { ...body, next_step: { ...body.next_step, url: 'http://evil.example/acs' } }
      : body,
};

/** The provider's `fetch` for a handler, with the fault set now (none: the sandbox as it is). */
export function faultyProvider(): { fetch: typeof fetch; set(fault: Fault | undefined): void } {
  let fault: Fault | undefined;
  return {
    set(next) {
      fault = next;
    },
    async fetch(input, init) {
      const request = new Request(input, init);
      const now = fault;
      if (now === undefined || (now.method !== undefined && now.method !== request.method)) {
        return fetch(request);
      }
      if (now.answer) return now.answer();
      const response = await fetch(request);
      const text = await response.text();
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      return json(response.status, now.change ? now.change(body) : body);
    },
  };
}
