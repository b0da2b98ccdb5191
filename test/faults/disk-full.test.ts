// Fault suite, disk full: a log on a full filesystem (a small tmpfs, filled) is a diagnosis, not a stall; a ready
// start whose record cannot be written is still ready; vigil stop works with a full disk.
import { openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listLaunchRecords } from '../../src/state/records.ts';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { isAlive, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { buildOnce, expectEnding, smallTmpfs, stopSampling, unmountAll } from './helpers.ts';

beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

afterEach(async () => {
  await killTrackedSessions();
  unmountAll();
  await removeTempDirs();
});

// Writes into the folder until the filesystem refuses (ENOSPC).
const fill = (dir: string): void => {
  const fd = openSync(join(dir, 'filler'), 'a');
  const block = Buffer.alloc(4096, 120);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    // full
  } finally {
    closeSync(fd);
  }
};

// A server that is healthy at once and tries to print the ready line, ignoring write errors (or exits on one).
const server = (port: number, onWriteError: 'ignore' | 'exit'): string[] => [
  process.execPath,
  '-e',
  `const say = (t) => { try { require('fs').writeSync(1, t + '\\n'); } catch (e) { ${onWriteError === 'exit' ? 'process.exit(1);' : ''} } };
   say('x'.repeat(8192));
   require('http').createServer((q, r) => r.end('ok')).listen(${String(port)}, '127.0.0.1', () => {
     say('The server is fired up and ready to roll!');
   });`,
];

const upArgs = (port: number, log: string, serverArgv: string[]): string[] => [
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
  '--stall-timeout',
  '30s',
  '--timeout',
  '40s',
  '--log',
  log,
  '--',
  ...serverArgv,
];

describe('disk full', () => {
  it('reports a healthy server whose ready line cannot arrive as ready, with a disk-full notice', async () => {
    const dir = await makeTempDir();
    const logs = join(dir, 'logs');
    smallTmpfs(logs, '256k');
    fill(logs);
    const port = await freePort();
    const log = join(logs, 'server.log');
    const run = await runVigil(
      upArgs(port, log, server(port, 'ignore')),
      { ...process.env, XDG_STATE_HOME: dir },
      45_000,
    );
    for (const e of run.events) if (e.type === 'launched') trackSession(e.pgid);
    // The disk is full from the start: ready (the server is healthy) within the bound, with the notice.
    expectEnding(run, { code: 0, final: 'ready', message: /"code":"disk-full"/ });
    const notice = run.events.find((e) => e.type === 'notice' && e.code === 'disk-full');
    expect(notice?.type === 'notice' && notice.message).toMatch(new RegExp(`${log}.*full.*free`));
  });

  it('diagnoses a server that dies on the full disk as disk-full', async () => {
    const dir = await makeTempDir();
    const logs = join(dir, 'logs');
    smallTmpfs(logs, '256k');
    fill(logs);
    const port = await freePort();
    const log = join(logs, 'server.log');
    const run = await runVigil(
      upArgs(port, log, server(port, 'exit')),
      { ...process.env, XDG_STATE_HOME: dir },
      45_000,
    );
    for (const e of run.events) if (e.type === 'launched') trackSession(e.pgid);
    expectEnding(run, { code: 3, message: /filesystem of the log .* is full/ });
    const failed = run.events.at(-1);
    expect(failed?.type === 'failed' && failed.diagnosis.class).toBe('disk-full');
    expect(failed?.type === 'failed' && failed.diagnosis.advice.join(' ')).toMatch(/free space/);
  });

  it('stays ready when the record cannot be written, and vigil stop works on the full disk', async () => {
    const dir = await makeTempDir();
    const state = join(dir, 'state');
    smallTmpfs(state, '512k');
    const env = { ...process.env, XDG_STATE_HOME: state };
    const port = await freePort();
    const running = startVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--no-preflight',
        '--port',
        String(port),
        '--interval',
        '100ms',
        '--log',
        join(dir, 'server.log'),
        '--',
        process.execPath,
        '-e',
        `setTimeout(() => require('http').createServer((q, r) => r.end('ok')).listen(${String(port)}, '127.0.0.1'), 1000)`,
      ],
      env,
    );
    const launched = await running.waitFor((e) => e.type === 'launched', 20_000);
    if (launched.type === 'launched') trackSession(launched.pgid);
    fill(state);
    const faultAt = Date.now();
    const run = await running.done;
    expectEnding(run, {
      code: 0,
      final: 'ready',
      message: /warning: .*could not be (written|updated)/,
      faultAt,
    });
    const [record] = await listLaunchRecords(join(state, 'vigil'));
    if (record === undefined) throw new Error('no record');
    const stop = await runVigil(['stop', record.id, '--grace', '1s'], env, 20_000);
    expectEnding(stop, { code: 0, message: new RegExp(`${record.id}: stopped 1 process`) });
    expect(launched.type === 'launched' && isAlive(launched.pid)).toBe(false);
  });
});
