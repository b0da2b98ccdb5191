// `vigil up --host` against a real test host (own network, PID and mount namespaces, own sshd): ready, crash,
// stall, unreachable, auth failure, remote path and port checks.
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedEvent } from '../../src/events.ts';
import { runVigil } from '../helpers/cli.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { createTestHost, type TestHost } from './testhost.ts';
import { hostArgs, lastEvent, numberedServer, remotePort, remoteProcesses, simCommand } from './remote.ts';

let host: TestHost;
// dist/ is built first, outside any one test's time limit (a build on a busy machine takes a while).
beforeAll(async () => {
  ensureBuilt();
  host = await createTestHost();
}, 240_000);
afterAll(() => {
  // Unset where creating the host failed: that error is the one to report.
  (host as TestHost | undefined)?.close();
});

const up = (args: string[], command: string[], timeoutMs = 60_000) =>
  runVigil(
    ['up', ...hostArgs(host), '--output', 'jsonl', ...args, '--', ...command],
    host.localEnv,
    timeoutMs,
  );

describe('vigil up --host', () => {
  it('launches on the host and ends ready, over one SSH connection', async () => {
    const before = host.connectionCount();
    const port = remotePort();
    const log = join(host.dir, 'ready.log');
    const run = await up(
      [
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${port}`,
        '--log',
        log,
        '--env',
        'VIGIL_SIM_TIME_SCALE=0.002',
      ],
      simCommand(port),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(lastEvent(run.events)?.type).toBe('ready');
    const launched = run.events.find((e) => e.type === 'launched');
    expect(launched).toMatchObject({ host: host.dest, log });
    // The server runs inside the host's PID namespace, not here.
    const inside = await remoteProcesses(host);
    expect(
      inside.some((p) => p.argv.includes('sim sglang') && p.pid === (launched as { pid: number }).pid),
    ).toBe(true);
    expect(host.connectionCount() - before).toBe(1);
    const records = join(host.localEnv['XDG_STATE_HOME'] ?? '', 'vigil', 'launches');
    const [file] = readdirSync(records).filter((n) => n.endsWith('.json'));
    expect(statSync(join(records, file ?? '')).mode & 0o777).toBe(0o600);
  });

  it('reports a crash on the host with its diagnosis and leaves no process behind', async () => {
    const port = remotePort();
    const run = await up(
      [
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${port}`,
        '--env',
        'VIGIL_SIM_TIME_SCALE=0.002',
        '--env',
        'VIGIL_SIM_FAIL=cuda-oom@graph-capture',
      ],
      simCommand(port),
    );
    expect(run.code, run.stderr).toBe(3);
    const failed = lastEvent(run.events) as FailedEvent;
    expect(failed).toMatchObject({ type: 'failed', reason: 'exited' });
    expect(failed.diagnosis.class).toBe('cuda-oom');
    expect((await remoteProcesses(host)).filter((p) => p.argv.includes(`--port ${port}`))).toEqual([]);
  });

  it('ends stalled when the server hangs on the host', async () => {
    const port = remotePort();
    const run = await up(
      [
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${port}`,
        '--stall-timeout',
        '2s',
        '--grace',
        '1s',
        '--env',
        'VIGIL_SIM_TIME_SCALE=0.002',
        '--env',
        'VIGIL_SIM_FAIL=hang@dist-init',
      ],
      simCommand(port),
    );
    expect(run.code, run.stderr).toBe(5);
    expect(lastEvent(run.events)).toMatchObject({ type: 'failed', reason: 'stalled' });
    expect((await remoteProcesses(host)).filter((p) => p.argv.includes(`--port ${port}`))).toEqual([]);
  });

  it('fails with exit 6 and launches nothing when the address does not answer', async () => {
    const run = await runVigil(
      [
        'up',
        '--host',
        `root@${host.unusedAddr}`,
        '--ssh-config',
        host.sshConfig,
        '--connect-timeout',
        '2s',
        '--output',
        'jsonl',
        '--url',
        'http://127.0.0.1:31999',
        '--',
        'true',
      ],
      host.localEnv,
    );
    expect(run.code).toBe(6);
    const failed = lastEvent(run.events) as FailedEvent;
    expect(failed).toMatchObject({ type: 'failed', reason: 'unreachable' });
    expect(failed.diagnosis.summary).toMatch(/timed out|cannot be reached/);
    expect(run.events.some((e) => e.type === 'launched')).toBe(false);
  });

  it('fails with exit 6 naming an authentication failure', async () => {
    const run = await runVigil(
      [
        'up',
        '--host',
        `nobody@${host.addr}`,
        '--ssh-config',
        host.sshConfig,
        '--output',
        'jsonl',
        '--url',
        'http://127.0.0.1:31999',
        '--',
        'true',
      ],
      host.localEnv,
    );
    expect(run.code).toBe(6);
    expect((lastEvent(run.events) as FailedEvent).diagnosis.summary).toMatch(/authentication failed/);
  });

  it('checks model paths on the host, not here', async () => {
    const port = remotePort();
    // This file exists here and there (shared filesystem); one only the host has is made inside its mount namespace.
    await host.exec('mkdir -p /run/only-on-host-model');
    const run = await up(
      ['--engine', 'sglang', '--url', `http://127.0.0.1:${port}`, '--offline'],
      [
        ...simCommand(port).slice(0, 6),
        '/run/only-on-host-model',
        '--port',
        String(port),
        '--speculative-draft-model-path',
        '/run/missing-draft',
      ],
    );
    expect(run.code, run.stderr).toBe(2);
    const preflight = run.events.find((e) => e.type === 'preflight');
    const paths =
      preflight?.type === 'preflight' ? preflight.findings.filter((f) => f.code === 'path-not-found') : [];
    expect(paths.map((f) => f.arg)).toEqual(['/run/missing-draft']);
    expect(paths[0]?.message).toContain(host.dest);
  });

  it('test-binds the port on the host and names the holder', async () => {
    const port = remotePort();
    await host.exec(
      `setsid nohup python3 -c 'import socket,time; s=socket.socket(); s.bind(("127.0.0.1",${port})); s.listen(); time.sleep(60)' >/dev/null 2>&1 &`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const run = await up(
      ['--engine', 'sglang', '--url', `http://127.0.0.1:${port}`, '--offline'],
      simCommand(port),
    );
    expect(run.code, run.stderr).toBe(2);
    const failed = lastEvent(run.events) as FailedEvent;
    expect(failed.diagnosis.class).toBe('port-in-use');
    expect(failed.diagnosis.summary).toMatch(/by pid \d+ \(.*python3/);
    expect(run.events.some((e) => e.type === 'launched')).toBe(false);
  });

  it('vigil check --host checks paths on the host', async () => {
    await host.exec('mkdir -p /run/check-model-on-host');
    const command = (path: string) => ['--', ...simCommand(31990).slice(0, 6), path];
    const ok = await runVigil(
      ['check', ...hostArgs(host), '--offline', ...command('/run/check-model-on-host')],
      host.localEnv,
    );
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    const missing = await runVigil(
      ['check', ...hostArgs(host), '--offline', ...command('/run/not-on-host')],
      host.localEnv,
    );
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('/run/not-on-host');
  });

  it('vigil wait --host watches a process and a log on the host until ready', async () => {
    const port = remotePort();
    const log = join(host.dir, 'wait.log');
    const { stdout } = await host.exec(
      `PORT=${port} SEQ_COUNT=20 SEQ_MS=20 setsid nohup ${process.execPath} ${numberedServer(host)} > ${log} 2>&1 < /dev/null & echo $!`,
    );
    const pid = stdout.trim();
    const run = await runVigil(
      [
        'wait',
        ...hostArgs(host),
        '--output',
        'jsonl',
        '--pid',
        pid,
        '--log',
        log,
        // A password in the URL is a secret: no event shows it.
        `http://alice:s3cret-passw0rd@127.0.0.1:${port}/health`,
      ],
      host.localEnv,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(lastEvent(run.events)?.type).toBe('ready');
    expect(run.stdout).not.toContain('s3cret-passw0rd');
    await host.exec(`kill ${pid}`);
  });

  it('vigil wait --host reports the watched process dying', async () => {
    const { stdout } = await host.exec('setsid nohup sleep 1 >/dev/null 2>&1 < /dev/null & echo $!');
    const run = await runVigil(
      [
        'wait',
        ...hostArgs(host),
        '--output',
        'jsonl',
        '--pid',
        stdout.trim(),
        'http://127.0.0.1:31998/health',
      ],
      host.localEnv,
    );
    expect(run.code, run.stderr).toBe(3);
    expect(lastEvent(run.events)).toMatchObject({ type: 'failed', reason: 'exited' });
  });

  it('runs --activate before the server, under --remote-shell bash -lc', async () => {
    const port = remotePort();
    const run = await up(
      [
        '--engine',
        'generic',
        '--url',
        `http://127.0.0.1:${port}/health`,
        '--remote-shell',
        'bash -lc',
        '--activate',
        `export SEQ_COUNT=3 SEQ_MS=5 PORT=${port}`,
      ],
      [process.execPath, numberedServer(host)],
    );
    expect(run.code, run.stderr).toBe(0);
    // The server saw what the activation exported: three numbered lines, on the port it set.
    expect(run.events.filter((e) => e.type === 'log' && e.text.startsWith('seq ')).length).toBe(3);
    await runVigil(
      ['stop', (run.events.find((e) => e.type === 'launched') as { id: string }).id],
      host.localEnv,
    );
  });
});
