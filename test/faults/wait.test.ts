// Fault suite, `vigil wait`: what cannot work is said at the start (a pid that is not running, a --log that is a
// folder or a FIFO), with exit 2 and a final `failed` event, instead of a crash report or a blocked read.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { freePort } from '../helpers/ports.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { buildOnce, expectEnding, inEveryMode, stopSampling } from './helpers.ts';

beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

afterEach(removeTempDirs);

const unusedPid = (): number => {
  for (let pid = 4_000_000; pid > 3_000_000; pid -= 7919) {
    try {
      process.kill(pid, 0);
    } catch {
      return pid;
    }
  }
  throw new Error('no unused pid found');
};

describe('vigil wait on what cannot work', () => {
  it('refuses a --pid that is not running, in every mode', async () => {
    const port = await freePort();
    const pid = String(unusedPid());
    const args = ['wait', `http://127.0.0.1:${port}`, '--pid', pid, '--timeout', '20s'];
    const [jsonl, plain] = await inEveryMode(['jsonl', 'plain'], (mode) =>
      runVigil([...args, '--output', mode], process.env, 15_000),
    );
    if (jsonl === undefined || plain === undefined) throw new Error('a run is missing');
    expectEnding(jsonl, { code: 2, message: new RegExp(`--pid ${pid}: no such process`) });
    expect(jsonl.events.some((e) => e.type === 'probe')).toBe(false);
    expectEnding(plain, { code: 2, message: /no such process is running/ });
    expect(plain.stdout).not.toMatch(/crashed|exited after/);
  });

  it('refuses a --log that is a FIFO or a folder without blocking', async () => {
    const dir = await makeTempDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const port = await freePort();
    const cases = [
      [fifo, /is not a regular file \(a FIFO\)/],
      [dir, /is a directory/],
    ] as const;
    const runs = await Promise.all(
      cases.map(([log]) =>
        runVigil(
          ['wait', `http://127.0.0.1:${port}`, '--log', log, '--timeout', '20s', '--output', 'jsonl'],
          process.env,
          15_000,
        ),
      ),
    );
    runs.forEach((run, i) => {
      expectEnding(run, { code: 2, message: cases[i]?.[1] ?? /./ });
    });
  });
});

describe('files the user names are never opened when they are not regular files', () => {
  it('refuses an --env-file, a --config and a --help-file that are FIFOs, without blocking', async () => {
    const dir = await makeTempDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo, `${fifo}.yaml`]);
    const port = await freePort();
    // In-process: Node 20 itself consumes a --env-file given after the script name (see docs/faults.md).
    const startedAt = Date.now();
    const env = await runMain(['up', '--port', String(port), '--env-file', fifo, '--', 'sleep', '1']);
    expectEnding(
      { ...env, signal: null, events: [], args: [], startedAt, endedAt: Date.now() },
      { code: 1, message: /--env-file .*ENOTREGULAR/ },
    );
    const cases = [
      [
        'check',
        '--offline',
        '--',
        'python',
        '-m',
        'sglang.launch_server',
        '--model-path',
        'm',
        '--config',
        `${fifo}.yaml`,
      ],
      ['check', '--help-file', fifo, '--', 'python', '-m', 'sglang.launch_server', '--model-path', 'm'],
    ];
    const runs = await Promise.all(cases.map((args) => runVigil(args, process.env, 15_000)));
    // --config is a preflight error (exit 2); --help-file cannot be read at all (exit 1).
    runs.forEach((run, i) => {
      expectEnding(run, {
        code: i === 0 ? 2 : 1,
        final: null,
        message: /FIFO|ENOTREGULAR|not a regular file/,
      });
    });
  });
});
