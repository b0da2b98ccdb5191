// Free loopback ports for benchmark servers.
import { createServer } from 'node:net';

// Binds port 0 on 127.0.0.1, reads the port the kernel chose, and releases it.
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
