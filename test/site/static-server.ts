/**
 * The static site served as any static host would: `python3 -m http.server` on a free
 * loopback port, at the root of its origin or under a path (a folder that holds dist/site/
 * deeper down), and if asked with `Cache-Control: no-cache` on every answer (the same server,
 * its handler adding the header), as hosts that want every file revalidated do. It can be
 * stopped and started again on the same port: the same origin, and so the same browser state.
 * The port is the one the system gives http.server as it binds (port 0), read from what it
 * prints: a port found free beforehand could be taken by another process before http.server
 * bound it (seen in CI, with the three engines' suites starting servers at once).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from '../shared/until.ts';

export interface StaticServer {
  /** The site's root URL, with its trailing slash. */
  readonly url: string;
  /** Every path the server was asked for, in order (its access log). */
  readonly requested: () => string[];
  /** Serves `text` as the file `name` of the site's folder from now on; its URL. */
  put(name: string, text: string): string;
  /** Stops the server (nothing of the site can be fetched), keeping its files. */
  stop(): Promise<void>;
  /** Starts it again after `stop`, on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** http.server's own command line (`test()`), with a handler that adds `Cache-Control: no-cache`. */
const NO_CACHE = `
import functools, http.server, sys
class NoCache(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header('Cache-Control', 'no-cache')
        super().end_headers()
http.server.test(HandlerClass=functools.partial(NoCache, directory=sys.argv[3]), port=int(sys.argv[1]), bind=sys.argv[2])
`;

/** Serves `dir` at `path` ('/' or '/some/prefix/') of a new origin. */
export async function serveStatic(
  dir: string,
  path = '/',
  { noCache = false } = {},
): Promise<StaticServer> {
  // The site's folder is made of links to the build's files, so that `put` adds a file beside
  // them without writing into the build.
  const root = mkdtempSync(join(tmpdir(), 'site-'));
  const at = join(root, ...path.split('/').filter(Boolean));
  mkdirSync(at, { recursive: true });
  for (const entry of readdirSync(dir)) symlinkSync(join(dir, entry), join(at, entry));
  // 0 until the first start, which takes the port the system gives; a restart takes it again.
  let port = 0;
  const args = () =>
    noCache
      ? ['-u', '-c', NO_CACHE, String(port), '127.0.0.1', root]
      : ['-u', '-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root];
  let log = '';
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('python3', args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    const from = log.length;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`http.server not ready:\n${log.slice(from)}`)),
        scaled(10_000),
      );
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        const serving = /Serving HTTP on \S+ port (\d+)/.exec(log.slice(from));
        if (serving) {
          port = Number(serving[1]);
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout?.on('data', onData);
      started.stderr?.on('data', onData);
      started.once('exit', (code) =>
        reject(new Error(`http.server exited with ${code}:\n${log.slice(from)}`)),
      );
    });
  };
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    }
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requested: () => [...log.matchAll(/"[A-Z]+ (\S+) HTTP/g)].map((m) => m[1]!),
    put(name, text) {
      writeFileSync(join(at, name), text);
      return new URL(name, `http://127.0.0.1:${port}${path}`).href;
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
