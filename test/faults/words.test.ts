// Fault suite, right words for what happened: localhost with a squatter on ::1, a dead URL with no log, vigil stop
// during a watch, vigil status after the watcher was killed, a binary log, control characters in evidence.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { killTrackedSessions } from '../helpers/processes.ts';
import { removeTempDirs } from '../helpers/temp.ts';
import { buildOnce } from './helpers.ts';

beforeAll(buildOnce, 300_000);

const closers: (() => void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await killTrackedSessions();
  await removeTempDirs();
});

const listen = async <S extends Server | HttpServer>(server: S, host: string, port: number): Promise<S> => {
  await new Promise<void>((resolve) => server.listen({ host, port }, resolve));
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return server;
};

describe('right words', () => {
  it('probes localhost on both families: a silent squatter on ::1 does not hide the IPv4 server', async () => {
    const port = await freePort();
    await listen(
      createServer(() => undefined),
      '::1',
      port,
    );
    const watching = startVigil([
      'wait',
      `http://localhost:${port}/health`,
      '--timeout',
      '20s',
      '--interval',
      '200ms',
      '--output',
      'jsonl',
    ]);
    await sleep(1500);
    await listen(
      createHttpServer((_req, res) => {
        res.end('ok');
      }),
      '127.0.0.1',
      port,
    );
    const run = await watching.done;
    expect(run.code, run.stdout).toBe(0);
    const ready = run.events.at(-1);
    expect(ready?.type).toBe('ready');
  });

  it('gives no invented advice for a dead URL without a log', async () => {
    const port = await freePort();
    for (const mode of ['jsonl', 'plain']) {
      const run = await runVigil(
        ['wait', `http://127.0.0.1:${port}`, '--timeout', '1s', '--output', mode],
        process.env,
        15_000,
      );
      expect(run.code).toBe(4);
      expect(run.stdout).not.toMatch(/NCCL|OOM|GPU|CUDA/i);
      expect(run.stdout).toMatch(/nothing (answered|listens)|connection refused|ECONNREFUSED/i);
    }
  });
});
