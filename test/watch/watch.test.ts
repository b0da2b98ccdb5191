import { spawn } from 'node:child_process';
import { writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watch } from '../../src/watch/watch.ts';
import type { WatchOptions } from '../../src/watch/options.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { collect, type Collected } from '../helpers/events.ts';
import { isAlive, killTrackedSessions, trackSession, waitForAlive } from '../helpers/processes.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

// Starts the fixture server detached (as some other tool would), its output going to `log` when given.
const startServer = async (args: string[], log?: string): Promise<number> => {
  const { openSync, closeSync } = await import('node:fs');
  const fd = log === undefined ? 'ignore' : openSync(log, 'a');
  const [file, ...rest] = serverCommand(...args);
  const child = spawn(file!, rest, { detached: true, stdio: ['ignore', fd, fd] });
  if (typeof fd === 'number') closeSync(fd);
  trackSession(child.pid!);
  child.unref();
  await waitForAlive(child.pid!);
  return child.pid!;
};

const run = (options: WatchOptions): Promise<Collected> => collect(watch(options));

describe('watch', () => {
  it('watches a server started elsewhere until it is ready, leaving it running', async () => {
    const port = await freePort();
    const pid = await startServer(['--port', String(port), '--healthy-after', '500']);
    const c = await run({ url: `http://127.0.0.1:${port}`, pid, intervalMs: 100 });
    expect(c.result).toMatchObject({ ok: true, exitCode: 0, id: null, url: `http://127.0.0.1:${port}` });
    expect(c.of('probe').at(-1)?.url).toBe(`http://127.0.0.1:${port}/health`);
    expect(isAlive(pid)).toBe(true);
  });

  it('says what it cannot see without --log and --pid', async () => {
    const port = await freePort();
    await startServer(['--port', String(port)]);
    const c = await run({ url: `http://127.0.0.1:${port}` });
    expect(c.of('notice').map((n) => n.code)).toEqual(['no-log', 'no-pid']);
    expect(c.result.ok).toBe(true);
  });

  it('fails at once when the watched pid dies', async () => {
    const port = await freePort();
    const pid = await startServer([
      '--port',
      String(port),
      '--never-healthy',
      '--exit-after',
      '500',
      '--exit-code',
      '1',
    ]);
    const started = performance.now();
    const c = await run({ url: `http://127.0.0.1:${port}`, pid, timeoutMs: 60_000 });
    expect(c.result).toMatchObject({ ok: false, exitCode: 3 });
    expect(c.events.at(-1)).toMatchObject({ type: 'failed', reason: 'exited', server_exit_code: null });
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('counts a zombie as dead', async () => {
    // The shell backgrounds a short sleep and becomes a long one that never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 30'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    trackSession(parent.pid!);
    const pid = await new Promise<number>((resolve) => {
      parent.stdout.once('data', (data: Buffer) => {
        resolve(Number(data.toString().trim()));
      });
    });
    const port = await freePort();
    const c = await run({ url: `http://127.0.0.1:${port}`, pid, timeoutMs: 30_000 });
    const failed = c.events.at(-1);
    expect(failed).toMatchObject({ type: 'failed', reason: 'exited' });
    expect(failed?.type === 'failed' ? failed.message : '').toMatch(/zombie|gone/);
    expect(isAlive(parent.pid!)).toBe(true);
  });

  it('fails at once for a pid that is not running', async () => {
    const port = await freePort();
    const c = await run({ url: `http://127.0.0.1:${port}`, pid: 2 ** 22 + 7 });
    // Refused at the start (exit 2), not reported as a crash.
    expect(c.events.at(-1)).toMatchObject({ type: 'failed', reason: 'preflight', exit_code: 2 });
    expect(c.of('probe')).toEqual([]);
  });

  it('reads the log from its start by default, from its end with logFrom end', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'server.log');
    await writeFile(log, '[2026-01-01 00:00:00] The server is fired up and ready to roll!\n');
    const port = await freePort();
    await startServer(['--port', String(port)], log);
    const fromStart = await run({ url: `http://127.0.0.1:${port}`, engine: 'sglang', log, intervalMs: 100 });
    expect(fromStart.result.ok).toBe(true);
    const fromEnd = await run({
      url: `http://127.0.0.1:${port}`,
      engine: 'sglang',
      log,
      logFrom: 'end',
      intervalMs: 100,
      timeoutMs: 1200,
    });
    expect(fromEnd.events.at(-1)).toMatchObject({ type: 'failed', reason: 'timeout' });
    expect(fromEnd.of('notice').map((n) => n.code)).toContain('waiting-for-ready-line');
  });

  it('follows a log that appears only later', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'later.log');
    const port = await freePort();
    await startServer(['--port', String(port)]);
    setTimeout(() => {
      void appendFile(log, 'The server is fired up and ready to roll!\n');
    }, 600);
    const c = await run({ url: `http://127.0.0.1:${port}`, engine: 'sglang', log, intervalMs: 100 });
    expect(c.result.ok).toBe(true);
    expect(c.of('notice').map((n) => n.code)).toContain('log-missing');
  });

  it('probes SGLang at /health_generate when no log is followed', async () => {
    const port = await freePort();
    await startServer(['--port', String(port)]);
    const c = await run({ url: `http://127.0.0.1:${port}`, engine: 'sglang' });
    expect(c.of('probe').at(-1)?.url).toBe(`http://127.0.0.1:${port}/health_generate`);
    expect(c.result.ok).toBe(true);
  });

  it('sends the API key with each probe, and masks it', async () => {
    const port = await freePort();
    await startServer(['--port', String(port), '--api-key', 'sk-wait-123456']);
    const c = await run({ url: `http://127.0.0.1:${port}`, apiKey: 'sk-wait-123456' });
    expect(c.result.ok).toBe(true);
    expect(c.result.event.type).toBe('ready');
    expect(JSON.stringify(c.events)).not.toContain('sk-wait-123456');
  });

  it('ends as interrupted on abort, leaving the server alone', async () => {
    const port = await freePort();
    const pid = await startServer(['--port', String(port), '--never-healthy']);
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 500);
    const c = await run({ url: `http://127.0.0.1:${port}`, pid, signal: controller.signal });
    expect(c.result.exitCode).toBe(130);
    expect(isAlive(pid)).toBe(true);
  });

  it('rejects invalid options at once', () => {
    expect(() => watch({ url: 'not a url' })).toThrow(/url: expected an http/);
    expect(() => watch({ url: 'ftp://x' })).toThrow(/url: expected an http/);
    expect(() => watch({ url: 'http://127.0.0.1:1', pid: -4 })).toThrow(/pid/);
    expect(() => watch({ url: 'http://127.0.0.1:1', logFrom: 'middle' as 'end' })).toThrow(/logFrom/);
    expect(() => watch({ url: 'http://127.0.0.1:1', heartbeatMs: 0 })).toThrow(/heartbeatMs/);
  });
});
