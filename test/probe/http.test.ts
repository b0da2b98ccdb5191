import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeOnce } from '../../src/probe/http.ts';
import { freePort } from '../helpers/ports.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const serve = (
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
  port = 0,
): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer(handler);
    closers.push(
      () =>
        new Promise((done) => {
          server.closeAllConnections();
          server.close(() => {
            done();
          });
        }),
    );
    server.listen({ host, port }, () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : 0 });
    });
  });

describe('probeOnce', () => {
  it('returns the status of an answer, whatever it is', async () => {
    const { port } = await serve((req, res) =>
      res.writeHead(req.url === '/health' ? 503 : 404).end('loading'),
    );
    const result = await probeOnce(`http://127.0.0.1:${port}/health`, { timeoutMs: 5000 });
    expect(result).toMatchObject({
      status: 503,
      error: null,
      connected: true,
      url: `http://127.0.0.1:${port}/health`,
    });
    expect(result.ms).toBeGreaterThanOrEqual(0);
  });

  it('reports connection refused as an error without a connection', async () => {
    const port = await freePort();
    expect(await probeOnce(`http://127.0.0.1:${port}/health`, { timeoutMs: 5000 })).toMatchObject({
      status: null,
      error: 'ECONNREFUSED',
      connected: false,
    });
  });

  it('reports an empty reply (the server closes the connection) as an error after connecting', async () => {
    const server = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
    closers.push(
      () =>
        new Promise((done) =>
          server.close(() => {
            done();
          }),
        ),
    );
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const result = await probeOnce(`http://127.0.0.1:${port}/health`, { timeoutMs: 5000 });
    expect(result.status).toBeNull();
    expect(result.error).not.toBeNull();
    expect(result.connected).toBe(true);
  });

  it('gives up after the probe timeout', async () => {
    const { port } = await serve(() => {
      // never answers
    });
    const started = performance.now();
    const result = await probeOnce(`http://127.0.0.1:${port}/health`, { timeoutMs: 200 });
    expect(result).toMatchObject({ status: null, error: 'timeout' });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('stops at once when its signal aborts', async () => {
    const { port } = await serve(() => {
      // never answers
    });
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 50);
    const result = await probeOnce(`http://127.0.0.1:${port}/health`, {
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    expect(result.error).toBe('aborted');
  });

  it('sends the headers it is given (the server API key)', async () => {
    const { port } = await serve((req, res) =>
      res.writeHead(req.headers.authorization === 'Bearer sk-secret-1' ? 200 : 401).end(),
    );
    const url = `http://127.0.0.1:${port}/health`;
    expect((await probeOnce(url, { timeoutMs: 5000 })).status).toBe(401);
    expect(
      (await probeOnce(url, { timeoutMs: 5000, headers: { authorization: 'Bearer sk-secret-1' } })).status,
    ).toBe(200);
  });

  it('reaches a localhost server that binds only IPv6, and one that binds only IPv4', async () => {
    const v6 = await serve((req, res) => res.writeHead(200).end(req.headers.host), '::1');
    const r6 = await probeOnce(`http://localhost:${v6.port}/health`, { timeoutMs: 5000 });
    expect(r6).toMatchObject({ status: 200, url: `http://localhost:${v6.port}/health` });
    // A port of this worker's own block: a port 0 bind on 127.0.0.1 can land on one a server elsewhere (this test's,
    // another file's) holds on ::1, which `localhost` would then reach first.
    const v4 = await serve((_req, res) => res.writeHead(204).end(), '127.0.0.1', await freePort());
    expect((await probeOnce(`http://localhost:${v4.port}/health`, { timeoutMs: 5000 })).status).toBe(204);
  });

  it('keeps the Host header the URL names when it probes localhost by address', async () => {
    let host: string | undefined;
    const { port } = await serve((req, res) => {
      host = req.headers.host;
      res.writeHead(200).end();
    });
    await probeOnce(`http://localhost:${port}/health`, { timeoutMs: 5000 });
    expect(host).toBe(`localhost:${port}`);
  });

  it('reports the status of an answer whose body never ends, once it has read enough of it', async () => {
    const { port } = await serve((_req, res) => {
      // 128 kB of body, and the answer is never finished.
      res.writeHead(200);
      res.write('x'.repeat(128 * 1024));
    });
    const result = await probeOnce(`http://127.0.0.1:${port}/health`, { timeoutMs: 10_000 });
    expect(result).toMatchObject({ status: 200, error: null, connected: true });
    expect(result.ms).toBeLessThan(10_000);
  });
});
