// The child side of a bench server (./spawn.ts is the parent's): listen on a free loopback
// port, announce it with one JSON line, and close when the parent's pipe does.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free port of 127.0.0.1 and resolves with the server's base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Prints `info` as the one JSON line the parent waits for; stops when the parent goes away. */
export function serveForParent(server: Server, info: object): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
