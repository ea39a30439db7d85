// A loopback port for a server that must be told its port before it listens (a runtime, Redis,
// web-test-runner's dev server): the OS gives one out on 127.0.0.1, and it is closed again at
// once. Another process may take it meanwhile, unlikely for an ephemeral port the OS just
// handed out; first-free-from-8000 searches race when several runners start together.
// Plain JavaScript: web-test-runner's config imports it as it is.
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
