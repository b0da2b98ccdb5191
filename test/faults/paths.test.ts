// Fault suite, unusable paths: a --log or state directory that cannot be used, and a command that cannot run,
// end before anything is launched, with one clear line, exit 2, and in jsonl a final `failed` event.
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { buildOnce, expectEnding, inEveryMode, readOnlyDir, stopSampling, unmountAll } from './helpers.ts';

beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

afterEach(async () => {
  await killTrackedSessions();
  unmountAll();
  await removeTempDirs();
});

const MODES = ['plain', 'tty', 'jsonl'] as const;

// Runs `vigil up` on a server that would turn ready at once, in one output mode.
const up = async (mode: string, env: NodeJS.ProcessEnv, extra: string[], command?: string[]) => {
  const port = await freePort();
  const run = await runVigil(
    [
      'up',
      '--output',
      mode,
      '--no-preflight',
      '--port',
      String(port),
      '--interval',
      '100ms',
      ...extra,
      '--',
      ...(command ?? serverCommand('--port', String(port))),
    ],
    env,
    20_000,
  );
  for (const event of run.events) if (event.type === 'launched') trackSession(event.pgid);
  return run;
};

// Refused before anything is launched, in every output mode (run side by side: they share nothing).
const expectRefused = async (
  env: NodeJS.ProcessEnv,
  extra: string[],
  pattern: RegExp,
  command?: string[],
): Promise<void> => {
  const runs = await inEveryMode(MODES, (mode) => up(mode, env, extra, command));
  for (const run of runs) {
    expect(run.events.some((e) => e.type === 'launched')).toBe(false);
    expectEnding(run, { code: 2, message: pattern });
  }
};

describe('unusable --log and state paths', () => {
  it('refuses a --log that is a directory', async () => {
    const { dir, env } = await makeStateEnv();
    await expectRefused(env, ['--log', dir], /--log .* is a directory/);
  });

  it('refuses a --log on a read-only filesystem', async () => {
    const { dir, env } = await makeStateEnv();
    const ro = readOnlyDir(dir);
    await expectRefused(env, ['--log', join(ro, 'server.log')], /--log .*(read-only|not writable)/);
  });

  it('refuses a state directory under an XDG_STATE_HOME that is a file', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'state-file');
    writeFileSync(file, 'not a folder\n');
    await expectRefused(
      { ...process.env, XDG_STATE_HOME: file },
      [],
      /state directory .* (is not a directory|cannot be created)/,
    );
  });

  it('refuses a --log that is a FIFO before launch, without blocking', async () => {
    const { dir, env } = await makeStateEnv();
    const fifo = join(dir, 'pipe.log');
    execFileSync('mkfifo', [fifo]);
    await expectRefused(env, ['--log', fifo], /--log .* is not a regular file \(a FIFO\)/);
  });

  it('resolves a --log symlink knowingly, and says when the target is readable by others', async () => {
    const { dir, env } = await makeStateEnv();
    const target = join(dir, 'real.log');
    writeFileSync(target, '');
    chmodSync(target, 0o644);
    const link = join(dir, 'link.log');
    symlinkSync(target, link);
    const run = await up('jsonl', env, ['--log', link]);
    expectEnding(run, { code: 0, final: 'ready', message: /"type":"ready"/ });
    const notices = run.events.flatMap((e) => (e.type === 'notice' ? [e] : []));
    expect(notices.find((n) => n.code === 'log-symlink')?.message).toContain(target);
    expect(notices.find((n) => n.code === 'log-mode')?.message).toMatch(/0644/);
    const launched = run.events.find((e) => e.type === 'launched');
    expect(launched?.type === 'launched' && launched.log).toBe(target);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('tightens a state directory with loose permissions, and says so', async () => {
    const { stateDir, env } = await makeStateEnv();
    mkdirSync(stateDir, { mode: 0o755 });
    chmodSync(stateDir, 0o755);
    const run = await up('jsonl', env, []);
    expectEnding(run, { code: 0, final: 'ready', message: /"type":"ready"/ });
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    const notice = run.events.find((e) => e.type === 'notice' && e.code === 'state-dir-mode');
    expect(notice?.type === 'notice' && notice.message).toMatch(/0755.*0700/);
  });
});

describe('a command that cannot run', () => {
  it('gives one clear error and exit 2 for a missing, a non-executable and a directory command', async () => {
    const { dir, env } = await makeStateEnv();
    const plain = join(dir, 'not-executable.sh');
    writeFileSync(plain, '#!/bin/sh\necho hi\n');
    chmodSync(plain, 0o644);
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    await expectRefused(env, [], /no-such-server-xyz: (command )?not found/, [
      'no-such-server-xyz',
      '--port',
      '1',
    ]);
    await expectRefused(env, [], /not-executable\.sh: not executable/, [plain]);
    await expectRefused(env, [], /a-folder: is a directory/, [folder]);
  });
});
