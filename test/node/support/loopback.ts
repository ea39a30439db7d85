// Test servers listen on 127.0.0.1 only, on a port the OS picks, and close with their
// keep-alive sockets so that a suite ends without waiting for idle connections.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:{port}`, no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listenLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
