// Test support: run one injected failure and check its lines and its ending (exit code, signal or hang).
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, type TestContext } from 'vitest';
import {
  freePort,
  groupPids,
  isAlive,
  missingInOrder,
  readTrace,
  startSim,
  stopSim,
  waitFor,
  waitForLog,
} from '../sim-process.ts';

export type Ending =
  | { code: number }
  /** Dies by SIGKILL; `orphans` says whether its workers are left running. */
  | { signal: 'SIGKILL'; orphans: boolean }
  /** Stays alive; `heartbeat` must keep repeating, or the log must stop growing when it is null. */
  | { hang: RegExp | null };

export interface FailureCase {
  fail: string;
  args?: string[];
  env?: Record<string, string>;
  lines: RegExp[];
  /** Lines that must not appear (e.g. the ready line, or a traceback after a host OOM kill). */
  absent?: RegExp[];
  end: Ending;
}

const count = (text: string, pattern: RegExp): number =>
  text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;

// Starts the simulator with the failure injected and checks everything the case describes.
export const checkFailure = async (
  engine: 'sglang' | 'vllm',
  baseArgs: (port: number) => string[],
  testCase: FailureCase,
  context: TestContext,
): Promise<void> => {
  const port = await freePort();
  const sim = startSim(engine, [...baseArgs(port), ...(testCase.args ?? [])], {
    VIGIL_SIM_FAIL: testCase.fail,
    VIGIL_SIM_TIME_SCALE: '0.002',
    ...testCase.env,
  });
  context.onTestFinished(() => stopSim(sim));
  const { end } = testCase;

  if ('hang' in end) {
    const last = testCase.lines.at(-1) ?? /./;
    await waitForLog(sim, last);
    if (end.hang === null) {
      // Well past the rest of the start at this time scale: nothing more may come.
      const before = sim.log();
      await sleep(800);
      expect(sim.log()).toBe(before);
    } else {
      const beat = end.hang;
      await waitFor('two heartbeats', () => count(sim.log(), beat) >= 2);
    }
    expect(isAlive(sim.pid)).toBe(true);
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toEqual({ code: null, signal: 'SIGTERM' });
  } else {
    const ended = await sim.exited;
    if ('code' in end) {
      expect(ended).toEqual({ code: end.code, signal: null });
      expect(readTrace(sim).at(-1)).toMatchObject({ event: 'exit', code: end.code });
    } else {
      expect(ended).toEqual({ code: null, signal: 'SIGKILL' });
      expect(readTrace(sim).at(-1)).toMatchObject({ event: 'exit', signal: 'SIGKILL' });
      if (end.orphans) expect(groupPids(sim.pid).length).toBeGreaterThan(0);
      else await waitFor('the workers to be gone', () => groupPids(sim.pid).length === 0, 10_000);
    }
  }
  const log = sim.log();
  expect(missingInOrder(log, testCase.lines), log).toBeNull();
  for (const pattern of testCase.absent ?? []) expect(log).not.toMatch(pattern);
};
