/** Another site on loopback, for a page a flow leaves for or comes from. */
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtherSite {
  url: string;
  close(): void;
}

/** Serves `listener` at a port the system gives, on 127.0.0.1. */
export async function startOtherSite(listener: RequestListener): Promise<OtherSite> {
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
