import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launch } from '../../src/watch/launch.ts';
import type { LaunchOptions } from '../../src/watch/options.ts';
import type { VigilEvent } from '../../src/events.ts';
import { readLaunchRecord, listLaunchRecords } from '../../src/state/records.ts';
import { serverCommand, WRAPPER } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { expectNoProcessLeft, isAlive, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import type { StartResult } from '../../src/watch/result.ts';

const servers: Server[] = [];
afterEach(async () => {
  await killTrackedSessions();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  await removeTempDirs();
});

interface Run {
  events: VigilEvent[];
  result: StartResult;
  stateDir: string;
  sid: number | null;
  of<T extends VigilEvent['type']>(type: T): Extract<VigilEvent, { type: T }>[];
}

// Launches with a fresh state directory; every launched session is killed after the test whatever happens.
const run = async (options: Omit<LaunchOptions, 'stateDir'> & { stateDir?: string }): Promise<Run> => {
  const stateDir = options.stateDir ?? (await makeStateEnv()).stateDir;
  // Probes every 100 ms unless a test says otherwise: tests wait for the schedule less.
  const handle = launch({ preflight: false, graceMs: 2000, intervalMs: 100, ...options, stateDir });
  const events: VigilEvent[] = [];
  let sid: number | null = null;
  for await (const event of handle.events) {
    events.push(event);
    if (event.type === 'launched') {
      sid = event.pgid;
      trackSession(sid);
    }
  }
  const result = await handle.result;
  return {
    events,
    result,
    stateDir,
    sid,
    of: <T extends VigilEvent['type']>(type: T) =>
      events.filter((e): e is Extract<VigilEvent, { type: T }> => e.type === type),
  };
};

const last = (r: Run): VigilEvent | undefined => r.events.at(-1);

describe('launch: ready', () => {
  it('launches, probes until healthy, reports ready and leaves the server running', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--healthy-after', '600'),
      port,
      intervalMs: 100,
    });
    expect(r.result).toMatchObject({ ok: true, exitCode: 0, url: `http://127.0.0.1:${port}` });
    expect(last(r)).toMatchObject({
      type: 'ready',
      url: `http://127.0.0.1:${port}`,
      health_url: `http://127.0.0.1:${port}/health`,
    });
    const launched = r.of('launched')[0]!;
    expect(launched).toMatchObject({
      host: 'local',
      log_offset: 0,
      health_url: `http://127.0.0.1:${port}/health`,
    });
    expect(launched.pgid).toBe(launched.pid);
    expect(r.of('probe').at(-1)).toMatchObject({ status: 200, rung: 'ready' });
    expect(r.of('probe').some((p) => p.status === 503 && p.rung === 'http-up')).toBe(true);
    expect(isAlive(launched.pid)).toBe(true);
    const record = await readLaunchRecord(r.stateDir, launched.id);
    expect(record).toMatchObject({
      outcome: 'ready',
      pid: launched.pid,
      sid: launched.pid,
      url: `http://127.0.0.1:${port}`,
    });
    expect(await readFile(launched.log, 'utf8')).toContain(`listening on 127.0.0.1:${port}`);
  });

  it('emits heartbeats with the elapsed time, rung, phase and last line', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--healthy-after',
        '1500',
        '--say',
        'hello from the server',
      ),
      port,
      heartbeatMs: 200,
    });
    const beats = r.of('heartbeat');
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats.at(-1)).toMatchObject({ phase: null });
    expect(beats.at(-1)!.elapsed_ms).toBeGreaterThan(beats[0]!.elapsed_ms);
    expect(
      beats.some(
        (b) => b.last_line?.includes('listening on') === true || b.last_line?.includes('hello') === true,
      ),
    ).toBe(true);
  });

  it('needs --success-threshold healthy answers in a row when health flaps', async () => {
    const port = await freePort();
    const statuses = '200,503,200,200,503,200,200,200';
    const flappy = await run({
      command: serverCommand('--port', String(port), '--health-statuses', statuses),
      port,
      intervalMs: 50,
      successThreshold: 3,
    });
    expect(flappy.result.ok).toBe(true);
    const answered = flappy
      .of('probe')
      .filter((p) => p.status !== null)
      .map((p) => p.status);
    expect(answered).toEqual([200, 503, 200, 200, 503, 200, 200, 200]);
  });

  it('a single healthy answer is enough by default', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--health-statuses', '200,503,503'),
      port,
      intervalMs: 50,
    });
    expect(r.result.ok).toBe(true);
    expect(
      r
        .of('probe')
        .filter((p) => p.status !== null)
        .map((p) => p.status),
    ).toEqual([200]);
  });
});

describe('launch: readiness rules', () => {
  it('never takes an early 200 from /v1/models for ready: SGLang is probed at /health', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--models-early',
        '--healthy-after',
        '1000',
        '--ready-line-after',
        '1100',
      ),
      engine: 'sglang',
      url: `http://127.0.0.1:${port}`,
      intervalMs: 100,
    });
    expect(r.result.ok).toBe(true);
    expect(r.of('probe').every((p) => p.url === `http://127.0.0.1:${port}/health`)).toBe(true);
    expect(r.result.elapsedMs).toBeGreaterThanOrEqual(1000);
  });

  it('waits for the ready line even when /health answers 200 early, and says so', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--ready-line-after', '1200'),
      engine: 'sglang',
      url: `http://127.0.0.1:${port}`,
      intervalMs: 100,
    });
    expect(r.result.ok).toBe(true);
    expect(r.result.elapsedMs).toBeGreaterThanOrEqual(1200);
    expect(r.of('notice').map((n) => n.code)).toContain('waiting-for-ready-line');
    expect(r.of('probe').filter((p) => p.status === 200).length).toBeGreaterThan(1);
  });

  it('calls a second SGLang node ready at its health-check server line, probing nothing', async () => {
    // A stand-in for `python -m sglang.launch_server --node-rank 1`: its log up to the line SGLang prints once this
    // node's schedulers are up; it serves no API.
    const dir = await makeTempDir();
    const python = join(dir, 'python');
    await writeFile(
      python,
      `#!${process.execPath}\n` +
        "console.log('[2026-01-14 11:58:07 DP16 TP16 EP16] Load weight begin. avail mem=60.80 GB');\n" +
        "setTimeout(() => console.log('[2026-01-14 12:03:25] Dummy health check server started in background thread at 127.0.0.1:8000'), 300);\n" +
        'setInterval(() => {}, 1000);\n',
      { mode: 0o755 },
    );
    const r = await run({
      command: [
        python,
        '-m',
        'sglang.launch_server',
        '--model-path',
        'm',
        '--node-rank',
        '1',
        '--port',
        '30000',
      ],
      log: join(dir, 'node1.log'),
      timeoutMs: 20_000,
    });
    expect(r.result.ok, JSON.stringify(r.events.at(-1))).toBe(true);
    expect(r.of('notice').map((n) => n.code)).toContain('no-api');
    expect(r.of('probe')).toEqual([]);
  });

  it("ignores an earlier run's ready line in an appended log", async () => {
    const port = await freePort();
    const dir = await makeTempDir();
    const log = join(dir, 'server.log');
    await writeFile(log, 'earlier run\n[2026-01-01 00:00:00] The server is fired up and ready to roll!\n');
    const r = await run({
      command: serverCommand('--port', String(port)),
      engine: 'sglang',
      url: `http://127.0.0.1:${port}`,
      log,
      intervalMs: 100,
      timeoutMs: 1500,
    });
    expect(r.result).toMatchObject({ ok: false, exitCode: 4 });
    expect(r.of('launched')[0]!.log_offset).toBeGreaterThan(0);
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'timeout' });
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it('a ready line aborts the probe in flight and probes again at once', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--hold-health-until-ready',
        '--ready-line-after',
        '1500',
      ),
      engine: 'sglang',
      url: `http://127.0.0.1:${port}`,
      intervalMs: 100,
      probeTimeoutMs: 60_000,
    });
    expect(r.result.ok).toBe(true);
    // Without the abort, the probe held since before the ready line would answer only after 30 s.
    expect(r.result.elapsedMs).toBeLessThan(20_000);
    expect(r.of('probe').filter((p) => p.status !== null)).toHaveLength(1);
  });

  it('uses a --url path as given', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--health-path', '/ready'),
      url: `http://127.0.0.1:${port}/ready`,
    });
    expect(r.result.ok).toBe(true);
    expect(r.of('probe').at(-1)?.url).toBe(`http://127.0.0.1:${port}/ready`);
  });

  it('takes other statuses as healthy with --expect-status', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--health-statuses', '204'),
      port,
      expectStatus: [200, 204],
    });
    expect(r.result.ok).toBe(true);
  });
});

describe('launch: failures', () => {
  it('reports a crash with its exit code at once, with the log tail, and leaves nothing behind', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--never-healthy',
        '--child',
        '--exit-after',
        '500',
        '--exit-code',
        '3',
      ),
      port,
    });
    expect(r.result).toMatchObject({ ok: false, exitCode: 3 });
    const failed = last(r);
    expect(failed).toMatchObject({
      type: 'failed',
      reason: 'exited',
      exit_code: 3,
      server_exit_code: 3,
      server_signal: null,
    });
    if (failed?.type !== 'failed') throw new Error('not failed');
    expect(failed.log_tail?.at(-1)?.text).toContain('fatal: exiting with code 3');
    expect(failed.diagnosis.evidence.length).toBeGreaterThan(0);
    expect(failed.elapsed_ms).toBeLessThan(30_000);
    expect(failed.kept_running).toBe(false);
    await expectNoProcessLeft({ sid: r.sid! });
    expect((await listLaunchRecords(r.stateDir))[0]?.outcome).toBe('failed');
  });

  // The rank's own start (a node process) must be done before the leader exits: hence the 2 s.
  it('says the server exited at once, before the grace period a rank that ignores SIGTERM costs', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--never-healthy',
        '--child',
        '--child-ignores-term',
        '--exit-after',
        '1000',
        '--exit-code',
        '1',
      ),
      port,
      graceMs: 1500,
    });
    const exited = r.of('exited');
    expect(exited).toHaveLength(1);
    expect(exited[0]).toMatchObject({ server_exit_code: 1, server_signal: null });
    const failed = last(r);
    expect(failed).toMatchObject({ type: 'failed', reason: 'exited', server_exit_code: 1 });
    // The rank outlives SIGTERM, so the stop takes the whole grace period; the exit was said before it.
    expect(failed!.t - exited[0]!.t).toBeGreaterThanOrEqual(1400);
    expect(r.events.indexOf(exited[0]!)).toBeLessThan(r.events.indexOf(failed!));
    expect(r.of('notice').find((n) => n.code === 'stopping')!.t).toBeGreaterThanOrEqual(exited[0]!.t);
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it('reports a crash by signal', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--never-healthy',
        '--signal-after',
        '300',
        '--signal',
        'SIGKILL',
      ),
      port,
    });
    expect(last(r)).toMatchObject({
      type: 'failed',
      reason: 'exited',
      exit_code: 3,
      server_exit_code: null,
      server_signal: 'SIGKILL',
    });
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it('counts an exit with code 0 before ready as a failure', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--never-healthy',
        '--exit-after',
        '200',
        '--exit-code',
        '0',
      ),
      port,
    });
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'exited', server_exit_code: 0 });
  });

  it('keeps watching the session when the launcher exits 0 and its server lives on', async () => {
    const port = await freePort();
    const r = await run({
      command: [WRAPPER, ...serverCommand('--port', String(port), '--healthy-after', '800')],
      port,
    });
    expect(r.of('notice').map((n) => n.code)).toContain('leader-exited');
    expect(r.result.ok).toBe(true);
  });

  it('fails when the backgrounded server dies after its launcher exited 0, and stops what is left', async () => {
    const port = await freePort();
    const r = await run({
      command: [WRAPPER, ...serverCommand('--port', String(port), '--never-healthy', '--exit-after', '800')],
      port,
    });
    expect(r.of('notice').map((n) => n.code)).toContain('leader-exited');
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'exited', exit_code: 3 });
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it('times out from spawn, naming the rung, and stops the server', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--never-healthy', '--child'),
      port,
      timeoutMs: 1500,
    });
    expect(r.result).toMatchObject({ ok: false, exitCode: 4 });
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'timeout', exit_code: 4, kept_running: false });
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it("stalls when only the engine's heartbeat lines keep coming", async () => {
    const port = await freePort();
    // The line interval is 100 ms; the stall timeout is 20 times that.
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--never-healthy',
        '--say-every',
        '100',
        '--say-every-text',
        'Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)',
      ),
      engine: 'sglang',
      url: `http://127.0.0.1:${port}`,
      stallTimeoutMs: 2000,
      timeoutMs: 30_000,
    });
    expect(r.result).toMatchObject({ ok: false, exitCode: 5 });
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'stalled' });
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it('does not stall while real progress lines keep coming', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--never-healthy', '--progress-every', '100'),
      port,
      // Twenty progress lines per stall window: a busy machine may delay some, not all of them.
      stallTimeoutMs: 2000,
      timeoutMs: 4500,
    });
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'timeout' });
  });

  it('leaves a failed server running with keepOnFailure', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port), '--never-healthy'),
      port,
      timeoutMs: 800,
      keepOnFailure: true,
    });
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'timeout', kept_running: true });
    expect(isAlive(r.of('launched')[0]!.pid)).toBe(true);
  });

  it('fails as preflight (exit 2), launching nothing, when the log cannot be opened', async () => {
    const port = await freePort();
    const { stateDir } = await makeStateEnv();
    const handle = launch({
      command: serverCommand('--port', String(port)),
      port,
      stateDir,
      preflight: false,
      log: '/proc/1/vigil.log',
    });
    const events: VigilEvent[] = [];
    for await (const event of handle.events) events.push(event);
    await expect(handle.result).resolves.toMatchObject({ ok: false, exitCode: 2 });
    expect(events.map((e) => e.type)).not.toContain('launched');
    expect(events.at(-1)?.type).toBe('failed');
    expect(await listLaunchRecords(stateDir)).toEqual([]);
  });

  it('fails cleanly when the command cannot start', async () => {
    const dir = await makeTempDir();
    const script = join(dir, 'not-executable.sh');
    await writeFile(script, '#!/bin/sh\n', { mode: 0o644 });
    const result = await launch({ command: [script], port: 9, stateDir: dir }).result;
    expect(result.exitCode).toBe(2);
    expect(result.event.type === 'failed' && result.event.diagnosis.summary).toMatch(
      /cannot run .*not-executable\.sh: not executable/,
    );
  });
});

describe('launch: the port', () => {
  const hold = async (port: number): Promise<void> => {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port }, resolve));
  };

  it('fails as preflight (exit 2) naming a foreign holder, and launches nothing', async () => {
    const port = await freePort();
    await hold(port);
    const r = await run({ command: serverCommand('--port', String(port)), port });
    expect(r.result).toMatchObject({ ok: false, exitCode: 2 });
    expect(r.of('launched')).toEqual([]);
    const failed = last(r);
    expect(failed).toMatchObject({
      type: 'failed',
      reason: 'preflight',
      exit_code: 2,
      diagnosis: { class: 'port-in-use' },
    });
    if (failed?.type !== 'failed') throw new Error('not failed');
    expect(failed.diagnosis.summary).toContain(`pid ${process.pid}`);
    expect(await listLaunchRecords(r.stateDir)).toEqual([]);
  });

  it('names a vigil launch that holds the port, and --replace stops it first', async () => {
    const port = await freePort();
    const { stateDir } = await makeStateEnv();
    const first = await run({ command: serverCommand('--port', String(port)), port, stateDir });
    expect(first.result.ok).toBe(true);
    const id = first.result.id!;
    const second = await run({ command: serverCommand('--port', String(port)), port, stateDir });
    expect(second.result.exitCode).toBe(2);
    const failed = last(second);
    if (failed?.type !== 'failed') throw new Error('not failed');
    expect(failed.diagnosis.summary).toContain(`vigil launch ${id}`);
    expect(failed.diagnosis.advice.join('\n')).toContain(`vigil stop ${id}`);
    expect(failed.diagnosis.advice.join('\n')).toContain('--replace');

    const third = await run({
      command: serverCommand('--port', String(port)),
      port,
      stateDir,
      replace: true,
    });
    expect(third.result.ok).toBe(true);
    expect(third.of('notice').map((n) => n.code)).toContain('replacing');
    await expectNoProcessLeft({ sid: first.sid! });
    expect((await readLaunchRecord(stateDir, id)).outcome).toBe('stopped');
  });
});

describe('launch: secrets', () => {
  it('masks --api-key and *_TOKEN values in every event and in the record', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand(
        '--port',
        String(port),
        '--never-healthy',
        '--say',
        'server_args=ServerArgs(api_key=sk-live-abcdef)',
        '--say',
        'auth with hf_secret_token_999',
        '--exit-after',
        '300',
        '--api-key',
        'sk-live-abcdef',
      ),
      port,
      env: { HF_TOKEN: 'hf_secret_token_999' },
    });
    expect(r.result.exitCode).toBe(3);
    const text = JSON.stringify(r.events);
    expect(text).not.toContain('sk-live-abcdef');
    expect(text).not.toContain('hf_secret_token_999');
    const failed = last(r);
    if (failed?.type !== 'failed') throw new Error('not failed');
    expect(failed.log_tail?.map((e) => e.text).join('\n')).toContain('auth with ***');
    expect(r.of('launched')[0]!.command).toContain('***');
    const record = await readFile(join(r.stateDir, 'launches', `${r.of('launched')[0]!.id}.json`), 'utf8');
    expect(record).not.toContain('sk-live-abcdef');
  });
});

describe('launch: interrupts and validation', () => {
  it('an abort during the watch stops the server and ends as interrupted (130)', async () => {
    const port = await freePort();
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 800);
    const r = await run({
      command: serverCommand('--port', String(port), '--never-healthy', '--child'),
      port,
      signal: controller.signal,
    });
    expect(r.result.exitCode).toBe(130);
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'interrupted', kept_running: false });
    await expectNoProcessLeft({ sid: r.sid! });
  });

  it('detachOnInterrupt leaves the server running', async () => {
    const port = await freePort();
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 800);
    const r = await run({
      command: serverCommand('--port', String(port), '--never-healthy'),
      port,
      signal: controller.signal,
      detachOnInterrupt: true,
    });
    expect(last(r)).toMatchObject({ type: 'failed', reason: 'interrupted', kept_running: true });
    expect(isAlive(r.of('launched')[0]!.pid)).toBe(true);
  });

  it('an interrupt before the launch launches nothing', async () => {
    const port = await freePort();
    const r = await run({
      command: serverCommand('--port', String(port)),
      port,
      signal: AbortSignal.abort(),
    });
    expect(r.result.exitCode).toBe(130);
    expect(r.of('launched')).toEqual([]);
    expect(await listLaunchRecords(r.stateDir)).toEqual([]);
  });

  it('rejects invalid options before doing anything', async () => {
    const { stateDir } = await makeStateEnv();
    expect(() => launch({ command: [], stateDir })).toThrow(/no server command/);
    expect(() => launch({ command: ['sleep', '1'], stateDir })).toThrow(/cannot tell which port/);
    expect(() => launch({ command: ['sleep', '1'], port: 70000, stateDir })).toThrow(/port: expected a port/);
    expect(() => launch({ command: ['sleep', '1'], port: 8000, successThreshold: 0, stateDir })).toThrow(
      /successThreshold/,
    );
    expect(() => launch({ command: ['sleep', '1'], port: 8000, timeoutMs: -1, stateDir })).toThrow(
      /timeoutMs/,
    );
    expect(() => launch({ command: ['sleep', '1'], port: 8000, expectStatus: [42], stateDir })).toThrow(
      /expectStatus/,
    );
    // A command that cannot run is a preflight failure (exit 2) with a final event, not a throw.
    const missing = await launch({ command: ['no-such-command-vigil-test'], port: 8000, stateDir }).result;
    expect(missing.exitCode).toBe(2);
    expect(missing.event.type === 'failed' && missing.event.diagnosis.summary).toMatch(/command not found/);
    expect(await listLaunchRecords(stateDir)).toEqual([]);
  });
});
