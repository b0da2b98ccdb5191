// `vigil up --host --smoke`, `vigil smoke --host` and `vigil bench --host` against a simulator on a real test host:
// the requests go through a port forward of the SSH master connection, since the server listens on the host's own
// loopback, which this machine cannot reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedEvent } from '../../src/events.ts';
import { runVigil } from '../helpers/cli.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { createTestHost, type TestHost } from './testhost.ts';
import { hostArgs, lastEvent, remotePort, remoteProcesses, simCommand } from './remote.ts';

let host: TestHost;
// The simulator `vigil up --host --smoke` started; the later tests reach it too.
let serverPort = 0;
beforeAll(async () => {
  ensureBuilt();
  host = await createTestHost();
}, 240_000);
afterAll(() => {
  // Unset where creating the host failed: that error is the one to report.
  (host as TestHost | undefined)?.close();
});

const SIM_ENV = [
  '--env',
  'VIGIL_SIM_TIME_SCALE=0.002',
  '--env',
  'VIGIL_SIM_TTFT_MS=5',
  '--env',
  'VIGIL_SIM_TOKENS_PER_S=500',
];

// TCP ports the ssh processes of this test host listen on here (a forward left behind would be one), from
// /proc/net/tcp and the processes' socket inodes.
const sshListeners = async (): Promise<number[]> => {
  const { readFile, readdir, readlink } = await import('node:fs/promises');
  const inodes = new Set<string>();
  for (const pid of (await readdir('/proc')).filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      // ssh itself (`ssh\0-F\0...`) or its master, which renames itself `ssh: <control path> [mux]`.
      if (!/^ssh(\0|: )/.test(cmdline) || !cmdline.includes(host.dir)) continue;
      for (const fd of await readdir(`/proc/${pid}/fd`)) {
        const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode !== undefined) inodes.add(inode);
      }
    } catch {
      // gone
    }
  }
  const ports: number[] = [];
  for (const line of (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[3] === '0A' && inodes.has(fields[9] ?? ''))
      ports.push(parseInt(fields[1]?.split(':')[1] ?? '0', 16));
  }
  return ports;
};

describe('smoke tests and load through --host', () => {
  it('vigil up --host --smoke ends at rung generating', async () => {
    serverPort = remotePort();
    const run = await runVigil(
      [
        'up',
        ...hostArgs(host),
        '--output',
        'jsonl',
        '--smoke',
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${String(serverPort)}`,
        ...SIM_ENV,
        '--',
        ...simCommand(serverPort),
      ],
      host.localEnv,
      90_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const types = run.events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(['smoke', 'ready']);
    expect(run.events.at(-2)).toMatchObject({ type: 'smoke', ok: true, tokens: 16 });
    expect(lastEvent(run.events)).toMatchObject({ type: 'ready', rung: 'generating' });
  });

  it('vigil smoke --host reaches the server on the host through the forward, and leaves no forward behind', async () => {
    const run = await runVigil(
      ['smoke', ...hostArgs(host), `http://127.0.0.1:${String(serverPort)}`, '--output', 'json'],
      host.localEnv,
      60_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    // The URL is reported as given (the host's view); the engine and model prove the simulator answered.
    expect(report).toMatchObject({
      ok: true,
      url: `http://127.0.0.1:${String(serverPort)}/`,
      engine: 'sglang',
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      tokens: 16,
    });
    expect(await sshListeners()).toEqual([]);
  });

  it('vigil bench --host runs a short load and reports the server as given', async () => {
    const run = await runVigil(
      [
        'bench',
        ...hostArgs(host),
        `http://127.0.0.1:${String(serverPort)}`,
        '--requests',
        '12',
        '--concurrency',
        '3',
        '--max-tokens',
        '8',
        '--input-tokens',
        '16',
        '--output',
        'json',
      ],
      host.localEnv,
      60_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      url: string;
      model: string;
      errors: { total: number };
      output_tokens_per_s: number;
    };
    expect(result.url).toBe(`http://127.0.0.1:${String(serverPort)}/`);
    expect(result.model).toBe('meta-llama/Llama-3.1-8B-Instruct');
    expect(result.errors.total).toBe(0);
    expect(result.output_tokens_per_s).toBeGreaterThan(0);
  });

  it('vigil smoke --host fails with exit 7 when nothing listens on that port of the host', async () => {
    const run = await runVigil(
      ['smoke', ...hostArgs(host), `http://127.0.0.1:${String(remotePort())}`, '--smoke-timeout', '5s'],
      host.localEnv,
      60_000,
    );
    expect(run.code, run.stderr).toBe(7);
    expect(run.stdout).toMatch(/smoke test failed/);
  });

  it('refuses an https:// URL with --host before connecting', async () => {
    const run = await runVigil(
      ['smoke', ...hostArgs(host), 'https://127.0.0.1:30000'],
      host.localEnv,
      30_000,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/only http:\/\/ URLs can be reached through --host/);
  });

  it('vigil up --host --smoke on a server whose generation fails: exit 7, reason smoke, server stopped', async () => {
    const port = remotePort();
    const run = await runVigil(
      [
        'up',
        ...hostArgs(host),
        '--output',
        'jsonl',
        '--smoke',
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${String(port)}`,
        ...SIM_ENV,
        '--env',
        'VIGIL_SIM_GENERATION_FAIL=500',
        '--',
        ...simCommand(port),
      ],
      host.localEnv,
      90_000,
    );
    expect(run.code, run.stderr).toBe(7);
    const failed = lastEvent(run.events) as FailedEvent;
    expect(failed).toMatchObject({ type: 'failed', reason: 'smoke', exit_code: 7, kept_running: false });
    expect(failed.diagnosis.evidence[0]).toMatchObject({ source: 'POST /v1/chat/completions' });
    expect(failed.diagnosis.evidence[0]?.text).toMatch(/^HTTP 500/);
    expect((await remoteProcesses(host)).filter((p) => p.argv.includes(`--port ${String(port)}`))).toEqual(
      [],
    );
  });
});
