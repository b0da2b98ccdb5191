import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnDetached } from '../../src/hosts/spawn.ts';
import { readProcStat } from '../../src/hosts/proc.ts';
import { isVigilError } from '../../src/errors.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

const node = (script: string): string[] => [process.execPath, '-e', script];

describe('spawnDetached', () => {
  it('starts the server in its own session and process group', async () => {
    const dir = await makeTempDir();
    const child = await spawnDetached({
      argv: node('setInterval(() => {}, 1000)'),
      logPath: join(dir, 'server.log'),
      env: process.env,
    });
    trackSession(child.sid);
    const stat = readProcStat(child.pid);
    expect(stat?.sid).toBe(child.pid);
    expect(stat?.pgid).toBe(child.pid);
    expect(child.starttime).toBe(stat?.starttime);
    expect(readProcStat(process.pid)?.sid).not.toBe(child.sid);
  });

  it('appends stdout and stderr to the log, records the offset, and creates a new log with mode 0600', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'logs', 'server.log');
    const first = await spawnDetached({
      argv: node('console.log("out one"); console.error("err one")'),
      logPath: log,
      env: process.env,
    });
    trackSession(first.sid);
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.logOffset).toBe(0);
    expect((await stat(log)).mode & 0o777).toBe(0o600);
    const size = (await stat(log)).size;
    const second = await spawnDetached({
      argv: node('console.log("out two")'),
      logPath: log,
      env: process.env,
    });
    trackSession(second.sid);
    await second.exited;
    expect(second.logOffset).toBe(size);
    const text = await readFile(log, 'utf8');
    expect(text.split('\n').filter(Boolean).sort()).toEqual(['err one', 'out one', 'out two']);
    expect(text.endsWith('out two\n')).toBe(true);
  });

  it('keeps the mode of a log file that already exists', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'server.log');
    await writeFile(log, 'old run\n', { mode: 0o644 });
    const child = await spawnDetached({
      argv: node('console.log("new run")'),
      logPath: log,
      env: process.env,
    });
    trackSession(child.sid);
    await child.exited;
    expect((await stat(log)).mode & 0o777).toBe(0o644);
    expect(child.logOffset).toBe('old run\n'.length);
  });

  it('passes the environment it is given', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'server.log');
    const child = await spawnDetached({
      argv: node('console.log(process.env.VIGIL_TEST_VALUE ?? "unset")'),
      logPath: log,
      env: { ...process.env, VIGIL_TEST_VALUE: 'from-env' },
    });
    trackSession(child.sid);
    await child.exited;
    expect(await readFile(log, 'utf8')).toBe('from-env\n');
  });

  it('reports a signal exit', async () => {
    const dir = await makeTempDir();
    const child = await spawnDetached({
      argv: node('process.kill(process.pid, "SIGKILL")'),
      logPath: join(dir, 'server.log'),
      env: process.env,
    });
    trackSession(child.sid);
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(child.exit).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('fails with E_SPAWN for a command that does not exist', async () => {
    const dir = await makeTempDir();
    const error: unknown = await spawnDetached({
      argv: [join(dir, 'no-such-server')],
      logPath: join(dir, 'server.log'),
      env: process.env,
    }).catch((e: unknown) => e);
    expect(isVigilError(error) && error.code).toBe('E_SPAWN');
    expect((error as Error).message).toMatch(/no-such-server: command not found/);
  });
});
