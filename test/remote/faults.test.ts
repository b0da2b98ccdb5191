// Real faults during a remote start: a 5 s partition (the link goes down, processes keep running), sshd killed
// and restarted, and a reboot of the host (every process killed, a new boot id).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedEvent, LogEvent, VigilEvent } from '../../src/events.ts';
import { startVigil } from '../helpers/cli.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { createTestHost, type TestHost } from './testhost.ts';
import { hostArgs, lastEvent, numberedServer, remotePort } from './remote.ts';

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

const startNumbered = (port: number, count: number, everyMs: number) =>
  startVigil(
    [
      'up',
      ...hostArgs(host),
      '--output',
      'jsonl',
      '--engine',
      'generic',
      '--url',
      `http://127.0.0.1:${port}/health`,
      '--env',
      `PORT=${port}`,
      '--env',
      `SEQ_COUNT=${count}`,
      '--env',
      `SEQ_MS=${everyMs}`,
      '--',
      process.execPath,
      numberedServer(host),
    ],
    host.localEnv,
  );

const seqLine = (n: number) => (event: VigilEvent) =>
  event.type === 'log' && event.text === `seq ${String(n).padStart(5, '0')}`;

// Every numbered line exactly once, in order, on consecutive file lines.
const expectEveryLineOnce = (events: readonly VigilEvent[], count: number): void => {
  const seqs = events.filter((e): e is LogEvent => e.type === 'log' && e.text.startsWith('seq '));
  expect(seqs.map((e) => e.text)).toEqual(
    Array.from({ length: count }, (_, i) => `seq ${String(i + 1).padStart(5, '0')}`),
  );
  expect(seqs.map((e) => e.line)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
};

describe('remote faults', () => {
  it('survives a 5 s partition mid-start and delivers every log line exactly once', async () => {
    const port = remotePort();
    const vigil = startNumbered(port, 400, 25);
    await vigil.waitFor(seqLine(20), 30_000);
    host.partition();
    try {
      await sleep(5000);
    } finally {
      host.heal();
    }
    const run = await vigil.done;
    expect(run.code, run.stderr).toBe(0);
    expect(lastEvent(run.events)?.type).toBe('ready');
    expectEveryLineOnce(run.events, 400);
  });

  it('reconnects after sshd is killed and restarted, resuming the log where it stopped', async () => {
    const port = remotePort();
    const vigil = startNumbered(port, 300, 20);
    await vigil.waitFor(seqLine(20), 30_000);
    host.killSshd();
    await vigil.waitFor((e) => e.type === 'unreachable', 15_000);
    await sleep(1000);
    host.startSshd();
    const run = await vigil.done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.some((e) => e.type === 'reconnected')).toBe(true);
    expect(run.events.some((e) => e.type === 'notice' && /unreachable since/.test(e.message))).toBe(true);
    expect(lastEvent(run.events)?.type).toBe('ready');
    expectEveryLineOnce(run.events, 300);
  });

  it('fails at once with host-rebooted (exit 6) when the host reboots mid-start', async () => {
    const port = remotePort();
    const vigil = startNumbered(port, 5000, 20);
    await vigil.waitFor(seqLine(10), 30_000);
    await host.reboot();
    const run = await vigil.done;
    expect(run.code, run.stderr).toBe(6);
    const failed = lastEvent(run.events) as FailedEvent;
    expect(failed).toMatchObject({ type: 'failed', reason: 'unreachable', exit_code: 6 });
    expect(failed.diagnosis.class).toBe('host-rebooted');
  });
});
