import { afterEach, describe, expect, it } from 'vitest';
import { launch } from '../../src/watch/launch.ts';
import type { LaunchOptions } from '../../src/watch/options.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { collect, type Collected } from '../helpers/events.ts';
import { freePort } from '../helpers/ports.ts';
import { expectNoProcessLeft, isAlive, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

// `vigil sim` runs from the built entry point, like any user's `vigil up -- vigil sim ...`.
const runSim = async (
  command: string[],
  simEnv: Record<string, string>,
  options: Partial<LaunchOptions> = {},
) => {
  ensureBuilt();
  const { stateDir } = await makeStateEnv();
  const handle = launch({
    command,
    stateDir,
    graceMs: 3000,
    offline: true,
    env: { VIGIL_SIM_TIME_SCALE: '0.002', ...simEnv },
    ...options,
  });
  const c: Collected = await collect(handle);
  const launched = c.of('launched')[0];
  if (launched !== undefined) trackSession(launched.pgid);
  return c;
};

describe('launch with the simulator', () => {
  it('SGLang: phases in order, then ready; the server keeps running', async () => {
    const port = await freePort();
    const c = await runSim(['vigil', 'sim', 'sglang', '--', '--model-path', 'm', '--port', String(port)], {});
    expect(c.result).toMatchObject({ ok: true, exitCode: 0, url: `http://127.0.0.1:${port}` });
    expect(c.of('preflight')[0]?.status).toBe('ok');
    const phases = [...new Set(c.of('phase').map((p) => p.name))];
    expect(phases).toEqual([
      'process-up',
      'dist-init',
      'weight-load',
      'kv-cache',
      'graph-capture',
      'http-up',
      'warmup',
      'ready',
    ]);
    expect(c.of('phase').find((p) => p.name === 'dist-init')?.previous?.name).toBe('process-up');
    expect(isAlive(c.of('launched')[0]!.pid)).toBe(true);
  });

  it('records the phase durations of a ready start, and the next start of the same profile gets an ETA', async () => {
    const { stateDir } = await makeStateEnv();
    const command = (port: number): string[] => [
      'vigil',
      'sim',
      'sglang',
      '--',
      '--model-path',
      'm',
      '--port',
      String(port),
    ];
    const first = await runSim(command(await freePort()), {}, { stateDir });
    expect(first.result.ok).toBe(true);
    expect(first.of('phase').every((p) => !('eta' in p))).toBe(true);
    const second = await runSim(command(await freePort()), {}, { stateDir });
    expect(second.result.ok).toBe(true);
    const weights = second.of('phase').find((p) => p.name === 'weight-load' && p.previous !== undefined);
    expect(weights?.eta).toMatchObject({ basis: 'median of 1 earlier start' });
    expect(weights?.eta?.ms).toBeGreaterThan(0);
  });

  it('SGLang cuda-oom@graph-capture: exited (3) with the evidence, and nothing left running', async () => {
    const port = await freePort();
    const c = await runSim(
      ['vigil', 'sim', 'sglang', '--', '--model-path', 'm', '--port', String(port), '--tp-size', '2'],
      {
        VIGIL_SIM_FAIL: 'cuda-oom@graph-capture',
      },
    );
    expect(c.result.exitCode).toBe(3);
    const failed = c.events.at(-1);
    if (failed?.type !== 'failed') throw new Error('no failed event');
    expect(failed).toMatchObject({ reason: 'exited', exit_code: 3, phase: 'graph-capture' });
    expect(failed.diagnosis.class).toBe('cuda-oom');
    expect(failed.diagnosis.evidence.some((e) => e.text.includes('CUDA out of memory'))).toBe(true);
    expect(failed.log_tail?.length).toBeGreaterThan(0);
    await expectNoProcessLeft({ sid: c.of('launched')[0]!.pgid });
  });

  it('vLLM hang that keeps printing its heartbeat: stalled (5)', async () => {
    const port = await freePort();
    // The simulated heartbeat comes every 100 ms (10 s at time scale 0.01); the stall timeout is 20 times that.
    const c = await runSim(
      ['vigil', 'sim', 'vllm', '--', 'serve', 'm', '--port', String(port)],
      { VIGIL_SIM_FAIL: 'hang@dist-init' },
      { stallTimeoutMs: 2000, timeoutMs: 60_000 },
    );
    expect(c.result.exitCode).toBe(5);
    expect(c.events.at(-1)).toMatchObject({ type: 'failed', reason: 'stalled' });
    expect(c.of('heartbeat')).toEqual([]);
    await expectNoProcessLeft({ sid: c.of('launched')[0]!.pgid });
  });

  it("masks the --api-key that SGLang's ServerArgs line prints", async () => {
    const port = await freePort();
    const c = await runSim(
      [
        'vigil',
        'sim',
        'sglang',
        '--',
        '--model-path',
        'm',
        '--port',
        String(port),
        '--api-key',
        'sk-sim-secret-42',
      ],
      {},
    );
    expect(c.result.ok).toBe(true);
    expect(JSON.stringify(c.events)).not.toContain('sk-sim-secret-42');
    expect(c.of('log').some((l) => l.text.includes("api_key='***'"))).toBe(true);
  });

  it("says so when --port differs from the command's port, and probes the one it was given", async () => {
    const [port, other] = [await freePort(), await freePort()];
    const c = await runSim(
      ['vigil', 'sim', 'sglang', '--', '--model-path', 'm', '--port', String(port)],
      {},
      {
        port: other,
        timeoutMs: 1500,
      },
    );
    expect(c.of('notice').find((n) => n.code === 'port-mismatch')?.message).toContain(
      `vigil probes ${other}`,
    );
    expect(c.of('probe').every((p) => p.url === `http://127.0.0.1:${other}/health`)).toBe(true);
    expect(c.result.exitCode).toBe(4);
  });

  it('stops at preflight (2) for a flag SGLang does not have, launching nothing', async () => {
    const port = await freePort();
    const c = await runSim(
      [
        'vigil',
        'sim',
        'sglang',
        '--',
        '--model-path',
        'm',
        '--port',
        String(port),
        '--num-speculative-tokens',
        '4',
      ],
      {},
    );
    expect(c.result.exitCode).toBe(2);
    expect(c.of('launched')).toEqual([]);
    expect(c.events.at(-1)).toMatchObject({
      type: 'failed',
      reason: 'preflight',
      diagnosis: { class: 'unknown-flag' },
    });
  });
});
