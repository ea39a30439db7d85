// How the fuzz targets in targets.ts are reached: in process, with a `fetch` that hands each
// request to the sandbox, and over a real socket through the package's node adapter.
// (test/node/exactly-once uses the in-process fetch too.)
import { createServer } from 'node:http';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { toNodeListener } from '../../../src/server/index.ts';
import { listenLoopback } from '../support/loopback.ts';

/**
 * A `fetch` that hands the request to the sandbox in process. It behaves like the real one
 * where the client depends on it: a dropped connection rejects, and the abort signal (the
 * client's timeout) rejects even while the sandbox is still busy with the request.
 */
export function inProcessFetch(sb: Pick<Sandbox, 'handle'>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const answer = sb.handle(request).then((response) => {
      if (response.type === 'error') throw new TypeError('fetch failed: connection dropped');
      return response;
    });
    if (signal === undefined) return answer;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  };
}

/** Serves a fetch handler on 127.0.0.1 (random port) through the package's node adapter. */
export function listen(handle: (request: Request) => Promise<Response>) {
  return listenLoopback(createServer(toNodeListener(handle)));
}
