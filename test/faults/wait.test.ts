// Fault suite, `vigil wait`: what cannot work is said at the start (a pid that is not running, a --log that is a
// folder or a FIFO), with exit 2 and a final `failed` event, instead of a crash report or a blocked read.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { freePort } from '../helpers/ports.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { buildOnce, expectCleanFailure, expectFailedEvent } from './helpers.ts';

beforeAll(buildOnce, 300_000);

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
    const jsonl = await runVigil([...args, '--output', 'jsonl'], process.env, 15_000);
    expectFailedEvent(jsonl, 2, new RegExp(`--pid ${pid}: no such process`));
    expect(jsonl.events.some((e) => e.type === 'probe')).toBe(false);
    const plain = await runVigil([...args, '--output', 'plain'], process.env, 15_000);
    expectCleanFailure(plain, 2, /no such process is running/);
    expect(plain.stdout).not.toMatch(/crashed|exited after/);
  });

  it('refuses a --log that is a FIFO or a folder without blocking', async () => {
    const dir = await makeTempDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const port = await freePort();
    for (const [log, pattern] of [
      [fifo, /is not a regular file \(a FIFO\)/],
      [dir, /is a directory/],
    ] as const) {
      const run = await runVigil(
        ['wait', `http://127.0.0.1:${port}`, '--log', log, '--timeout', '20s', '--output', 'jsonl'],
        process.env,
        15_000,
      );
      expectFailedEvent(run, 2, pattern);
    }
  });
});

describe('files the user names are never opened when they are not regular files', () => {
  it('refuses an --env-file, a --config and a --help-file that are FIFOs, without blocking', async () => {
    const dir = await makeTempDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo, `${fifo}.yaml`]);
    const port = await freePort();
    // In-process: Node 20 itself consumes a --env-file given after the script name (see docs/faults.md).
    const env = await runMain(['up', '--port', String(port), '--env-file', fifo, '--', 'sleep', '1']);
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/--env-file .*ENOTREGULAR/);
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
    for (const args of cases) {
      const run = await runVigil(args, process.env, 15_000);
      expect(run.signal, args.join(' ')).toBe(null);
      expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).not.toBe(0);
      expect(`${run.stdout}${run.stderr}`).toMatch(/FIFO|ENOTREGULAR|not a regular file/);
    }
  });
});
