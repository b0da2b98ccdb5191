// A free TCP port on loopback: bind port 0, read the port, release it.
import { createServer } from 'node:net';

// Resolves a port that was free a moment ago (good enough for tests that bind it right after).
export const freePort = (host = '127.0.0.1'): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
