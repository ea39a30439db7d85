// A loopback port for a server that must be told its port before it listens (a runtime,
// WebKitWebDriver, web-test-runner's dev server): the OS gives one out on 127.0.0.1, closed
// again at once. Another process may take it meanwhile, unlikely for an ephemeral port the
// OS just handed out; a search for the first free port from 8000 races when several runners
// start together. Plain JavaScript: web-test-runner's config and ./browser.mjs import it as
// it is.
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
