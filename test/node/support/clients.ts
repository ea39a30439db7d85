// Shoppers (or bots) at different addresses, all on this machine: every 127.x.y.z is a
// loopback address on Linux, so a client bound to 127.0.0.2 reaches a server on 127.0.0.1 and
// the server sees 127.0.0.2 as its connecting address, as it would see another host's.
import { Agent, fetch } from 'undici';
import { cardBody } from './cards.ts';

export interface Client {
  address: string;
  /** `POST {mount}/checkouts` with `{ order }` from this client's address. */
  create(order?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** `PUT {mount}/checkouts/{id}` with a card payment from this client's address. */
  pay(id: string, card?: string, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: { id?: string; status?: string; error?: { code: string; retryable: boolean } };
}

/** A client of the handler mounted at `mount` (e.g. `http://127.0.0.1:1234/payments`). */
export function clientAt(address: string, mount: string, origin: string): Client {
  const dispatcher = new Agent({ localAddress: address });
  async function call(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const response = await fetch(`${mount}${path}`, {
      method,
      headers: { origin, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      dispatcher,
    });
    return {
      status: response.status,
      headers: response.headers as unknown as Headers,
      body: (await response.json()) as Answer['body'],
    };
  }
  return {
    address,
    create: (order = { sku: 'tea' }, headers) => call('POST', '/checkouts', { order }, headers),
    pay: (id, card = '4200000000000091', headers) =>
      call('PUT', `/checkouts/${id}`, cardBody(card), headers),
    close: () => dispatcher.close(),
  };
}

/** The provider calls a handler makes, through its `fetch` option: `POST /v0.1/checkouts`, ... */
export function countingFetch(): { fetch: typeof globalThis.fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      const request = new Request(input, init);
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return globalThis.fetch(request);
    },
  };
}
