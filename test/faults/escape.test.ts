// Fault suite, nothing left running: a grandchild that leaves the server's session (setsid) is still found and
// stopped by `vigil stop` and by a failed start, and a record without a process start time is never signalled.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listLaunchRecords, writeLaunchRecord } from '../../src/state/records.ts';
import { runVigil } from '../helpers/cli.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { isAlive, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { buildOnce } from './helpers.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

// Processes whose environment carries this marker (the escaped grandchild's own).
const withMarker = (marker: string): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker) && isAlive(pid);
      } catch {
        return false;
      }
    });

const escaped: string[] = [];
beforeAll(buildOnce, 300_000);

afterEach(async () => {
  for (const marker of escaped.splice(0)) for (const pid of withMarker(marker)) process.kill(pid, 'SIGKILL');
  await killTrackedSessions();
  await removeTempDirs();
});

// A shell that starts `sleep` in a new session (escaping the server's group and session), then runs the server.
const escapingServer = (marker: string, port: number, ...serverArgs: string[]): string[] => [
  '/bin/sh',
  '-c',
  `ESCAPE_MARK=${marker} setsid sleep 300 </dev/null >/dev/null 2>&1 & exec "$@"`,
  'sh',
  ...serverCommand('--port', String(port), ...serverArgs),
];

const waitForMarker = async (marker: string): Promise<number[]> => {
  for (let i = 0; i < 100; i++) {
    const found = withMarker(marker);
    if (found.length > 0) return found;
    await sleep(50);
  }
  return [];
};

describe('escaped processes', () => {
  it('vigil stop finds and stops a grandchild that called setsid', async () => {
    const { env, stateDir } = await makeStateEnv();
    const port = await freePort();
    const marker = `ESCAPE_MARK=stop${String(port)}`;
    escaped.push(marker);
    const up = await runVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--no-preflight',
        '--port',
        String(port),
        '--',
        ...escapingServer(marker.split('=')[1] ?? '', port),
      ],
      env,
      20_000,
    );
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const [record] = await listLaunchRecords(stateDir);
    if (record === undefined) throw new Error('no record');
    trackSession(record.sid);
    const grandchildren = await waitForMarker(marker);
    expect(grandchildren.length).toBe(1);
    const stop = await runVigil(['stop', record.id, '--grace', '2s'], env, 20_000);
    expect(stop.code, stop.stdout + stop.stderr).toBe(0);
    expect(withMarker(marker)).toEqual([]);
  });

  it('a failed start stops a grandchild that called setsid', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const marker = `ESCAPE_MARK=fail${String(port)}`;
    escaped.push(marker);
    const up = await runVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--no-preflight',
        '--port',
        String(port),
        '--',
        ...escapingServer(marker.split('=')[1] ?? '', port, '--never-healthy', '--exit-after', '1500'),
      ],
      env,
      20_000,
    );
    for (const e of up.events) if (e.type === 'launched') trackSession(e.pgid);
    expect(up.code).toBe(3);
    expect(withMarker(marker)).toEqual([]);
  });

  it('never signals a record without a process start time', async () => {
    const { env, stateDir } = await makeStateEnv();
    // A process that got the recorded pid (a reuse vigil cannot detect without a start time): it must survive.
    const victim = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pid = victim.pid ?? 0;
    trackSession(pid);
    await writeLaunchRecord(stateDir, {
      version: 1,
      id: 'generic-1-dead',
      engine: 'generic',
      host: 'local',
      pid,
      pgid: pid,
      sid: pid,
      proc_start: null,
      started_at: new Date().toISOString(),
      log: '/dev/null',
      log_offset: 0,
      command: ['x'],
      url: null,
      health_url: null,
      port: 1,
      outcome: 'starting',
      ended_at: null,
    });
    const stop = await runVigil(['stop', 'generic-1-dead', '--grace', '100ms'], env, 20_000);
    expect(stop.code).toBe(1);
    expect(stop.stderr).toMatch(/no process start time/);
    expect(isAlive(pid)).toBe(true);
  });
});
