// Fault suite, secrets in every form: a mistyped or abbreviated secret flag, credentials in a URL, and a key the
// log itself reveals never reach any output mode or state file.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVigil, type VigilRun } from '../helpers/cli.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { buildOnce, expectEnding, inEveryMode, stopSampling } from './helpers.ts';
import { makeStateEnv, makeTempDir, removeTempDirs } from '../helpers/temp.ts';

beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

const MODES = ['plain', 'tty', 'jsonl'] as const;

// Every state file vigil wrote (records, history, locks), not the server's own log.
const stateText = (stateDir: string): string => {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'logs') continue;
      if (statSync(path).isDirectory()) walk(path);
      else out.push(readFileSync(path, 'utf8'));
    }
  };
  try {
    walk(stateDir);
  } catch {
    // nothing written
  }
  return out.join('\n');
};

const expectNoSecret = (run: VigilRun, secret: string): void => {
  expect(run.stdout).not.toContain(secret);
  expect(run.stderr).not.toContain(secret);
};

describe('secrets in every form', () => {
  it('masks a mistyped secret flag in vigil check, beside its suggestion', async () => {
    const runs = await inEveryMode(['plain', 'jsonl', 'json'], (mode) =>
      runVigil(
        [
          'check',
          '--output',
          mode,
          '--offline',
          '--',
          'python',
          '-m',
          'sglang.launch_server',
          '--model-path',
          'm',
          '--api-kye',
          'sk-typo-7f3a9c21',
        ],
        process.env,
        20_000,
      ),
    );
    for (const run of runs) {
      expectEnding(run, { code: 2, final: null, message: /--api-kye \*\*\*.*not an SGLang/ });
      expect(`${run.stdout}${run.stderr}`).toMatch(/--api-key/);
      expectNoSecret(run, 'sk-typo-7f3a9c21');
    }
  });

  it('masks an abbreviated secret flag on a generic command, in output and state', async () => {
    // The fixture server refuses the unknown flag and exits 1: the crash report quotes its log, masked too.
    const runs = await inEveryMode(MODES, async (mode) => {
      const { env, stateDir } = await makeStateEnv();
      const port = await freePort();
      const run = await runVigil(
        [
          'up',
          '--output',
          mode,
          '--port',
          String(port),
          '--',
          ...serverCommand('--port', String(port), '--api-k', 'sk-abbrev-5e8d1b'),
        ],
        env,
        20_000,
      );
      for (const e of run.events) if (e.type === 'launched') trackSession(e.pgid);
      return { run, stateDir };
    });
    for (const { run, stateDir } of runs) {
      expectEnding(run, { code: 3, message: /exit code 1/ });
      expectNoSecret(run, 'sk-abbrev-5e8d1b');
      expect(stateText(stateDir)).not.toContain('sk-abbrev-5e8d1b');
    }
  });

  it('masks URL credentials printed by vigil wait and stored by vigil up --url', async () => {
    const port = await freePort();
    const waits = await inEveryMode(MODES, (mode) =>
      runVigil(
        ['wait', `http://alice:pw-url-4c2e9a@127.0.0.1:${port}/health`, '--timeout', '1s', '--output', mode],
        process.env,
        20_000,
      ),
    );
    for (const run of waits) {
      // The fault: nothing listens, so the 1 s timeout ends the wait.
      expectEnding(run, { code: 4, message: /timed out|timeout|did not answer|refused/i });
      expectNoSecret(run, 'pw-url-4c2e9a');
    }
    const { env, stateDir } = await makeStateEnv();
    const up = await runVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--interval',
        '100ms',
        '--url',
        `http://alice:pw-up-8b1f3d@127.0.0.1:${port}/health`,
        '--',
        ...serverCommand('--port', String(port)),
      ],
      env,
      20_000,
    );
    for (const e of up.events) if (e.type === 'launched') trackSession(e.pgid);
    expectEnding(up, { code: 0, final: 'ready', message: /"type":"ready"/ });
    expectNoSecret(up, 'pw-up-8b1f3d');
    const state = stateText(stateDir);
    expect(state).toContain('alice');
    expect(state).not.toContain('pw-up-8b1f3d');
  });

  it('vigil diagnose learns a key from the log and masks it in later lines', async () => {
    const dir = await makeTempDir();
    const log = join(dir, 'server.log');
    writeFileSync(
      log,
      [
        "[2026-01-01 10:00:00] server_args=ServerArgs(model_path='m', api_key='sk-learned-2d7c4e', port=30000)",
        '[2026-01-01 10:00:01] Load weight begin.',
        'Traceback (most recent call last):',
        '  File "x.py", line 1, in <module>',
        'ValueError: invalid key sk-learned-2d7c4e for the admin endpoint',
        '',
      ].join('\n'),
    );
    const runs = await inEveryMode(MODES, (mode) =>
      runVigil(['diagnose', log, '--output', mode], process.env, 20_000),
    );
    for (const run of runs) {
      expectEnding(run, { code: 0, final: null, message: /ValueError/ });
      expect(run.stdout).toMatch(/ValueError/);
      expectNoSecret(run, 'sk-learned-2d7c4e');
    }
  });
});
