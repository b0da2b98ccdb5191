// Fault suite, right words for what happened: localhost with a squatter on ::1, a dead URL with no log, vigil stop
// during a watch, vigil status after the watcher was killed, a binary log, control characters in evidence.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { buildOnce, expectEnding, inEveryMode, stopSampling } from './helpers.ts';

beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

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

// Polls a health URL until it answers 200 (the server turning healthy on its own).
const untilHealthy = async (url: string): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`${url} never turned healthy`);
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
      '100ms',
      // Long, so a probe that waited out the squatter could not end within the bound.
      '--probe-timeout',
      '10s',
      '--output',
      'jsonl',
    ]);
    // A probe is under way while only the squatter listens; then the real server comes up on IPv4.
    await watching.waitFor((e) => e.type === 'notice', 15_000);
    await sleep(300);
    await listen(
      createHttpServer((_req, res) => {
        res.end('ok');
      }),
      '127.0.0.1',
      port,
    );
    const faultAt = Date.now();
    const run = await watching.done;
    expectEnding(run, { code: 0, final: 'ready', message: /"type":"ready"/, faultAt });
  });

  it('gives no invented advice for a dead URL without a log', async () => {
    const port = await freePort();
    const runs = await inEveryMode(['jsonl', 'plain'], (mode) =>
      runVigil(
        ['wait', `http://127.0.0.1:${port}`, '--timeout', '1s', '--output', mode],
        process.env,
        15_000,
      ),
    );
    for (const run of runs) {
      expectEnding(run, { code: 4, message: /timed out/ });
      expect(run.stdout).toMatch(/nothing (answered|listens)|connection refused|ECONNREFUSED/i);
      expect(run.stdout).not.toMatch(/NCCL|OOM|GPU|CUDA/i);
    }
  });
});

describe('stopped and killed watchers', () => {
  it('vigil up says the server was stopped by vigil stop, not that it crashed', async () => {
    await inEveryMode(['jsonl', 'plain'], async (mode) => {
      const { env, stateDir } = await makeStateEnv();
      const port = await freePort();
      const watching = startVigil(
        [
          'up',
          '--output',
          mode,
          '--port',
          String(port),
          '--grace',
          '1s',
          '--',
          ...serverCommand('--port', String(port), '--never-healthy'),
        ],
        env,
      );
      const { listLaunchRecords } = await import('../../src/state/records.ts');
      let record;
      for (let i = 0; i < 200 && record === undefined; i++) {
        record = (await listLaunchRecords(stateDir)).find((r) => r.outcome === 'starting');
        if (record === undefined) await sleep(50);
      }
      if (record === undefined) throw new Error('no launch recorded');
      trackSession(record.sid);
      const stop = await runVigil(['stop', record.id, '--grace', '1s'], env, 20_000);
      expectEnding(stop, { code: 0, message: new RegExp(`${record.id}: stopped`) });
      // The fault for the watcher is the stop: it ends within the bound of it, with exit 130.
      const run = await watching.done;
      expectEnding(run, { code: 130, message: /stopped by vigil stop/, faultAt: stop.startedAt });
      expect(run.stdout).toMatch(/stopped by vigil stop/);
      const last = run.events.at(-1);
      const said =
        mode === 'jsonl' && last?.type === 'failed'
          ? JSON.stringify([last.message, last.diagnosis])
          : run.stdout;
      expect(said).not.toMatch(/crashed|OOM|out of memory|killed by SIGTERM/i);
    });
  });

  it('vigil status shows live state after the watcher was killed', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const watching = startVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--port',
        String(port),
        '--',
        ...serverCommand('--port', String(port), '--healthy-after', '1000'),
      ],
      env,
    );
    const launched = await watching.waitFor((e) => e.type === 'launched', 20_000);
    if (launched.type === 'launched') trackSession(launched.pgid);
    watching.child.kill('SIGKILL');
    await watching.done;
    // The server turns healthy on its own; the record still says "starting".
    await untilHealthy(`http://127.0.0.1:${port}/health`);
    const [status, json] = await Promise.all([
      runVigil(['status'], env, 20_000),
      runVigil(['status', '--output', 'json'], env, 20_000),
    ]);
    expectEnding(status, { code: 0, message: /alive, healthy, watcher gone/ });
    const [row] = JSON.parse(json.stdout) as { health: string; watcher: string }[];
    expect(row?.health).toBe('healthy');
  });
});

describe('what vigil diagnose reads and prints', () => {
  it('says a binary file is not a text log', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'model.bin');
    writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 0, 0, 0xff, 0xfe, 10, 0, 3]));
    const runs = await inEveryMode(['plain', 'jsonl'], (mode) =>
      runVigil(['diagnose', file, '--output', mode], process.env, 15_000),
    );
    for (const run of runs) {
      expectEnding(run, { code: 1, final: null, message: /is not a text log/ });
      expect(run.stderr).toMatch(/is not a text log/);
    }
  });

  it('never writes raw control characters from evidence to the terminal', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'server.log');
    writeFileSync(
      log,
      [
        'starting',
        'Traceback (most recent call last):',
        'RuntimeError: CUDA out of memory.\u0007\u0008\u0008 \u001bhidden',
        '',
      ].join('\n'),
    );
    const runs = await inEveryMode(['plain', 'tty', 'jsonl'], (mode) =>
      runVigil(['diagnose', log, '--output', mode], process.env, 15_000),
    );
    for (const run of runs) {
      expectEnding(run, { code: 0, final: null, message: /out of memory/ });
      expect(run.stdout).toMatch(/out of memory/);
      // jsonl escapes controls itself; human output must not carry them raw (tty adds its own SGR colours only).
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(run.stdout.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0007\u0008\u001b]/);
    }
  });
});

describe('an enormous line', () => {
  it('does not hold up ready: the follower cuts it and skips the rest', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const server = [
      process.execPath,
      '-e',
      `const s = 'x'.repeat(1 << 20); for (let i = 0; i < 100; i++) process.stdout.write(s);
       process.stdout.write('\\nThe server is fired up and ready to roll!\\n');
       require('http').createServer((q, r) => r.end('ok')).listen(${String(port)}, '127.0.0.1');`,
    ];
    const run = await runVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--no-preflight',
        '--engine',
        'sglang',
        '--port',
        String(port),
        '--interval',
        '100ms',
        '--',
        ...server,
      ],
      env,
      60_000,
    );
    for (const e of run.events) if (e.type === 'launched') trackSession(e.pgid);
    // The enormous line is there from the start: before the cut, 100 MB in one line took over 8 s to get through.
    expectEnding(run, { code: 0, final: 'ready', message: /"type":"ready"/ });
  });
});
