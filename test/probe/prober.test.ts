import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createProber, type Prober } from '../../src/probe/prober.ts';
import type { ProbeResult } from '../../src/probe/http.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

// Serves handler on a loopback port chosen by the kernel, closed after the test; resolves to the port.
const serveOnLoopback = async (handler: RequestListener): Promise<number> => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
};

// A server that holds the first request open (the response is returned) and answers the rest at once.
const holdingServer = async (): Promise<{ port: number; held: ServerResponse[]; requests: () => number }> => {
  const held: ServerResponse[] = [];
  let requests = 0;
  const port = await serveOnLoopback((_req, res) => {
    requests++;
    if (requests === 1) held.push(res);
    else res.writeHead(200).end();
  });
  return { port, held, requests: () => requests };
};

const track = (prober: Prober): Prober => {
  cleanups.push(() => {
    prober.stop();
  });
  return prober;
};

describe('createProber', () => {
  it('probes at once, then every interval, with one probe in flight', async () => {
    const { port, requests } = await holdingServer();
    const results: ProbeResult[] = [];
    const prober = track(
      createProber({
        url: `http://127.0.0.1:${port}/health`,
        intervalMs: 100,
        timeoutMs: 10_000,
        onResult: (r) => results.push(r),
      }),
    );
    prober.start();
    // The first request is held: no second probe starts while it is in flight, however long it takes.
    await new Promise((r) => setTimeout(r, 600));
    expect(requests()).toBe(1);
    expect(results).toHaveLength(0);
  });

  it('aborts the probe in flight and fires a new one at once when triggered', async () => {
    const { port, requests } = await holdingServer();
    const results: ProbeResult[] = [];
    const prober = track(
      createProber({
        url: `http://127.0.0.1:${port}/health`,
        intervalMs: 60_000,
        timeoutMs: 60_000,
        onResult: (r) => results.push(r),
      }),
    );
    prober.start();
    while (requests() < 1) await new Promise((r) => setTimeout(r, 10));
    prober.trigger();
    const deadline = Date.now() + 10_000;
    while (results.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    // The superseded probe reports nothing; the new one answered 200 long before the 60 s interval.
    expect(results.map((r) => r.status)).toEqual([200]);
    expect(requests()).toBe(2);
  });

  it('keeps probing on its schedule and stops for good', async () => {
    const port = await serveOnLoopback((_req, res) => res.writeHead(503).end());
    const results: ProbeResult[] = [];
    const prober = track(
      createProber({
        url: `http://127.0.0.1:${port}/health`,
        intervalMs: 50,
        timeoutMs: 5000,
        onResult: (r) => results.push(r),
      }),
    );
    prober.start();
    const deadline = Date.now() + 10_000;
    while (results.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([503, 503, 503]);
    prober.stop();
    const count = results.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(results.length).toBe(count);
  });

  it('keeps a fixed rate: a slow answer does not push the next probe back', async () => {
    // Each answer takes 400 ms; probes are due every 600 ms from the first one's start. A schedule counted from
    // each answer would start them 1000 ms apart.
    const starts: number[] = [];
    const port = await serveOnLoopback((_req, res) => {
      starts.push(performance.now());
      setTimeout(() => res.writeHead(503).end(), 400);
    });
    const prober = track(
      createProber({
        url: `http://127.0.0.1:${port}/health`,
        intervalMs: 600,
        timeoutMs: 5000,
        onResult: () => undefined,
      }),
    );
    prober.start();
    const deadline = Date.now() + 20_000;
    while (starts.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    prober.stop();
    expect(starts.length).toBeGreaterThanOrEqual(4);
    const [first = 0, , , fourth = 0] = starts;
    // Three intervals: 1800 ms at a fixed rate, 3000 ms counted from each answer; the bound sits between.
    expect(fourth - first).toBeLessThan(2400);
  });
});
