// A chunked body that never comes to its end: the client hangs up mid-body, or sends a chunk
// and then nothing until Node's requestTimeout ends the request. The handler and the sandbox
// count such a body before any route reads it (no Content-Length to check); one cut short is
// the 400 naming `body` that a route gives it, logged as no error, where it was an unexpected
// error: the handler logged 'unexpected: aborted' at level error and counted a 500, the sandbox
// logged an internal error and a 500. The timed-out request is answered (Node's 408) and its
// socket closed: nothing holds it.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { type LogEntry, toNodeListener } from '../../../src/server/index.ts';
import { makeHandler, ORIGIN } from '../server/fixtures.ts';
import { type Listening, listenLoopback } from '../support/loopback.ts';
import { parseResponse } from '../support/raw-http.ts';

/** The head of a chunked POST that waits for 100 Continue: sent once the server routes it. */
const head = (path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}content-type: application/json\r\ntransfer-encoding: chunked\r\nexpect: 100-continue\r\n\r\n`;

/**
 * Sends `head`, and once the server says 100 Continue (the request is with the app), a first
 * chunk; then hangs up, or (`wait`) waits for whatever the server does. Resolves with what came.
 */
function cutShort(url: string, bytes: string, then: 'hang up' | 'wait'): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
    socket.on('data', (chunk) => {
      const first = answer === '';
      answer += chunk.toString('latin1');
      if (!first || !answer.startsWith('HTTP/1.1 100')) return;
      socket.write('4\r\n{"or\r\n', () => {
        if (then === 'hang up') socket.destroy();
      });
    });
    socket.write(bytes);
  });
}

describe('a chunked body cut short', () => {
  let sandbox: Sandbox;
  let handler: Listening;
  const sandboxLines: string[] = [];
  let sandboxLine: ((line: string) => void) | undefined;
  const entries: LogEntry[] = [];
  let entry: ((entry: LogEntry) => void) | undefined;

  before(async () => {
    sandbox = await createSandbox({
      port: 0,
      log: (line) => {
        sandboxLines.push(line);
        sandboxLine?.(line);
      },
    });
    const { handle } = makeHandler(sandbox, {
      logger: (logged) => {
        entries.push(logged);
        entry?.(logged);
      },
    });
    // Node ends a request whose body has not come in a second (it checks every 100 ms).
    const server = createServer(
      { requestTimeout: 1_000, connectionsCheckingInterval: 100 },
      toNodeListener(handle),
    );
    handler = await listenLoopback(server);
  });

  after(async () => {
    await handler?.close();
    await sandbox?.close();
  });

  /** The handler's log entry of the next request it answers. */
  const nextRequest = () =>
    new Promise<LogEntry>((resolve) => {
      entry = (logged) => {
        if (logged.message === 'request') resolve(logged);
      };
    });

  test('the handler: a client that hangs up is a 400, no error logged', async () => {
    entries.length = 0;
    const logged = nextRequest();
    await cutShort(handler.url, head('/payments/checkouts', `origin: ${ORIGIN}\r\n`), 'hang up');
    assert.equal((await logged).status, 400);
    assert.deepEqual(
      entries.filter((e) => e.level === 'error').map((e) => e.message),
      [],
    );
  });

  test('the handler: a body that stops coming gets Node’s 408 and its socket closed; a 400, no error logged', async () => {
    entries.length = 0;
    const logged = nextRequest();
    const answer = await cutShort(
      handler.url,
      head('/payments/checkouts', `origin: ${ORIGIN}\r\n`),
      'wait',
    );
    const res = parseResponse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    assert.equal(res?.status, 408, JSON.stringify(answer));
    assert.equal((await logged).status, 400);
    assert.deepEqual(
      entries.filter((e) => e.level === 'error').map((e) => e.message),
      [],
    );
  });

  test('the sandbox: a client that hangs up is a 400, no internal error logged', async () => {
    sandboxLines.length = 0;
    const logged = new Promise<string>((resolve) => {
      sandboxLine = (line) => {
        if (line.startsWith('POST /v0.1/checkouts ')) resolve(line);
      };
    });
    const auth = `authorization: Bearer ${sandbox.apiKey}\r\n`;
    await cutShort(sandbox.url, head('/v0.1/checkouts', auth), 'hang up');
    assert.match(await logged, /^POST \/v0\.1\/checkouts 400 /);
    assert.deepEqual(
      sandboxLines.filter((line) => line.includes('internal error')),
      [],
    );
  });
});
