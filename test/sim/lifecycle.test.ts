import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import {
  childPids,
  commandLine,
  ensureBuilt,
  freePort,
  groupPids,
  isAlive,
  readTrace,
  request,
  startSim,
  stopSim,
  waitFor,
  waitForLog,
} from './sim-process.ts';

beforeAll(() => {
  ensureBuilt();
});

describe.concurrent('the simulated engine as a process tree', () => {
  it('runs one scheduler per TP rank plus a detokenizer, and stops them all on SIGTERM after uvicorn shutdown', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port), '--tp-size', '2']);
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /ready to roll/);
    const expected = ['sglang::detokenizer', 'sglang::scheduler_TP0', 'sglang::scheduler_TP1'];
    // A worker takes its title once Node has started in it, which a busy machine can delay past ready.
    const workers = await waitFor('the workers to take their titles', () => {
      const pids = childPids(sim.pid);
      return JSON.stringify(pids.map(commandLine).sort()) === JSON.stringify(expected) ? pids : undefined;
    });
    expect(workers.every(isAlive)).toBe(true);

    sim.child.kill('SIGTERM');
    expect(await sim.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(sim.log()).toMatch(
      /INFO: {5}Shutting down\n.*INFO: {5}Waiting for application shutdown\.\n.*INFO: {5}Application shutdown complete\.\n.*INFO: {5}Finished server process \[\d+\]\n$/,
    );
    await waitFor('the workers to be gone', () => groupPids(sim.pid).length === 0, 10_000);
    expect(readTrace(sim).at(-1)).toMatchObject({ event: 'exit', signal: 'SIGTERM' });
    expect((await request(port, '/health')).status).toBeNull();
  });

  it("names vLLM's EngineCore and per-rank workers by their real pids, and stops them on SIGINT", async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('vllm', ['serve', 'm', '--host', '127.0.0.1', '--port', String(port), '-tp', '2']);
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /Application startup complete\./);
    const byTitle = new Map(childPids(sim.pid).map((pid) => [commandLine(pid), pid]));
    expect([...byTitle.keys()].sort()).toEqual([
      'VLLM::EngineCore_DP0',
      'VLLM::Worker_TP0',
      'VLLM::Worker_TP1',
    ]);
    const log = sim.log();
    expect(log).toContain(`(EngineCore_DP0 pid=${String(byTitle.get('VLLM::EngineCore_DP0'))}) INFO`);
    expect(log).toContain(`(Worker_TP1 pid=${String(byTitle.get('VLLM::Worker_TP1'))}) INFO`);
    expect(log).toContain(`(APIServer pid=${String(sim.pid)}) INFO`);

    sim.child.kill('SIGINT');
    expect(await sim.exited).toEqual({ code: null, signal: 'SIGINT' });
    await waitFor('the workers to be gone', () => groupPids(sim.pid).length === 0, 10_000);
  });

  it('leaves its workers running when it is SIGKILLed from outside, as a real engine does', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port)]);
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /ready to roll/);
    const workers = childPids(sim.pid);
    expect(workers).toHaveLength(2);
    process.kill(sim.pid, 'SIGKILL');
    expect(await sim.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await sleep(300);
    expect(workers.every(isAlive)).toBe(true);
    expect(groupPids(sim.pid).sort()).toEqual([...workers].sort());
  });

  it('stops at once on SIGTERM during loading, without uvicorn lines, and takes its workers with it', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port)], {
      VIGIL_SIM_TIME_SCALE: '0.1',
    });
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /Load weight begin/);
    await waitFor('the workers', () => childPids(sim.pid).length === 2);
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(sim.log()).not.toMatch(/Shutting down/);
    await waitFor('the workers to be gone', () => groupPids(sim.pid).length === 0, 10_000);
  });
});
