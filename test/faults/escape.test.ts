// Fault suite, nothing left running: grandchildren that leave the server's session (setsid, then a double fork,
// one of them with its environment cleared) are found and stopped by `vigil stop` and by a failed start: through
// the launch's cgroup where this machine allows one, through the session, group and VIGIL_LAUNCH_ID marker where
// it does not (VIGIL_NO_CGROUP=1). A record without a process start time is never signalled.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLaunchCgroup, killCgroup, removeCgroup } from '../../src/hosts/cgroup.ts';
import { listLaunchRecords, writeLaunchRecord, type LaunchRecord } from '../../src/state/records.ts';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { isAlive, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { buildOnce, expectEnding, stopSampling } from './helpers.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

// Processes whose environment carries this entry (the escaped grandchildren's own).
const withMarker = (marker: string): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker) && isAlive(pid);
      } catch {
        return false;
      }
    });

const hasLaunchMarker = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').includes('VIGIL_LAUNCH_ID=');
  } catch {
    return false;
  }
};

// Whether vigil can give a launch a cgroup on this machine: the same attempt vigil makes.
const cgroupHere = ((): boolean => {
  const made = createLaunchCgroup(`probe-${String(process.pid)}`);
  if (made.ok) removeCgroup(made.path);
  return made.ok;
})();

const markers: string[] = [];
const cgroups: string[] = [];
beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

afterEach(async () => {
  for (const marker of markers.splice(0)) for (const pid of withMarker(marker)) process.kill(pid, 'SIGKILL');
  for (const path of cgroups.splice(0)) {
    if (!existsSync(path)) continue;
    killCgroup(path);
    for (let i = 0; i < 50 && !removeCgroup(path); i++) await sleep(20);
  }
  await killTrackedSessions();
  await removeTempDirs();
});

// A shell that starts two `sleep`s outside the server's session (setsid, and a shell that exits at once, so they
// are nobody's children), the second with its environment cleared (no VIGIL_LAUNCH_ID), then runs the server.
const escapingServer = (mark: string, port: number, ...serverArgs: string[]): string[] => [
  '/bin/sh',
  '-c',
  `ESCAPE_MARK=${mark} setsid sh -c 'sleep 300 & exit' </dev/null >/dev/null 2>&1
   env -i ESCAPE_MARK=${mark} /usr/bin/setsid /bin/sh -c '/bin/sleep 300 & exit' </dev/null >/dev/null 2>&1
   exec "$@"`,
  'sh',
  ...serverCommand('--port', String(port), ...serverArgs),
];

const waitForEscaped = async (marker: string, count: number): Promise<number[]> => {
  for (let i = 0; i < 100; i++) {
    const found = withMarker(marker);
    if (found.length >= count) return found;
    await sleep(50);
  }
  return withMarker(marker);
};

const upArgs = (port: number, mark: string, ...serverArgs: string[]): string[] => [
  'up',
  '--output',
  'jsonl',
  '--debug',
  '--no-preflight',
  '--port',
  String(port),
  '--interval',
  '200ms',
  '--grace',
  '1s',
  '--',
  ...escapingServer(mark, port, ...serverArgs),
];

const onlyRecord = async (stateDir: string): Promise<LaunchRecord> => {
  const [record] = await listLaunchRecords(stateDir);
  if (record === undefined) throw new Error('no launch record');
  trackSession(record.sid);
  if (record.cgroup !== undefined && record.cgroup !== null) cgroups.push(record.cgroup);
  return record;
};

// With the cgroup, both escapees are caught; without it, only the one that kept the marker can be found.
for (const useCgroup of [true, false]) {
  const cgroupActive = useCgroup && cgroupHere;
  const label = useCgroup ? 'with a cgroup where the machine allows one' : 'with VIGIL_NO_CGROUP=1';

  describe(`escaped processes, ${label}`, () => {
    it('vigil stop finds and stops grandchildren that called setsid and were orphaned', async () => {
      const { env: stateEnv, stateDir } = await makeStateEnv();
      const env = useCgroup ? stateEnv : { ...stateEnv, VIGIL_NO_CGROUP: '1' };
      const port = await freePort();
      const mark = `stop${String(port)}`;
      const marker = `ESCAPE_MARK=${mark}`;
      markers.push(marker);
      const up = await runVigil(upArgs(port, mark), env, 20_000);
      expectEnding(up, { code: 0, final: 'ready', message: /"type":"ready"/ });
      const record = await onlyRecord(stateDir);
      const notice = up.events.find((e) => e.type === 'notice' && e.code === 'cgroup');
      if (cgroupActive) {
        expect(record.cgroup).toMatch(new RegExp(`/vigil-${record.id}$`));
        expect(notice?.type === 'notice' && notice.message).toContain(`own cgroup ${record.cgroup ?? ''}`);
      } else {
        expect(record.cgroup ?? null).toBe(null);
        expect(notice?.type === 'notice' && notice.message).toMatch(/no cgroup for this launch/);
      }
      // Both sleeps left the session and were orphaned; the second one also lost the launch's marker.
      const escaped = await waitForEscaped(marker, 2);
      expect(escaped.length).toBe(2);
      expect(escaped.filter((pid) => hasLaunchMarker(pid)).length).toBe(1);
      const findable = escaped.filter((pid) => cgroupActive || hasLaunchMarker(pid));
      const status = await runVigil(['status', record.id, '--output', 'json'], env, 20_000);
      expect({
        code: status.code,
        signal: status.signal,
        stderr: status.stderr,
        ms: status.endedAt - status.startedAt,
      }).toMatchObject({ code: 0, stderr: '' });
      const [row] = JSON.parse(status.stdout) as { processes: number[]; cgroup?: string }[];
      for (const pid of findable) expect(row?.processes).toContain(pid);
      expect(row?.cgroup ?? null).toBe(record.cgroup ?? null);
      const stop = await runVigil(['stop', record.id, '--grace', '1s'], env, 20_000);
      expectEnding(stop, { code: 0, message: new RegExp(`${record.id}: stopped \\d+ process`) });
      expect(findable.filter((pid) => isAlive(pid))).toEqual([]);
      if (cgroupActive) expect(existsSync(record.cgroup ?? '')).toBe(false);
    });

    it('a failed start stops grandchildren that called setsid and were orphaned', async () => {
      const { env: stateEnv, stateDir } = await makeStateEnv();
      const env = useCgroup ? stateEnv : { ...stateEnv, VIGIL_NO_CGROUP: '1' };
      const port = await freePort();
      const mark = `fail${String(port)}`;
      const marker = `ESCAPE_MARK=${mark}`;
      markers.push(marker);
      const running = startVigil(upArgs(port, mark, '--never-healthy', '--exit-after', '800'), env);
      const launched = await running.waitFor((e) => e.type === 'launched', 20_000);
      if (launched.type === 'launched') trackSession(launched.pgid);
      const run = await running.done;
      // The fault: the server exits 800 ms after it was launched (vigil's own clock, the events' `t`).
      const failed = run.events.at(-1);
      const afterFault = (failed?.t ?? Infinity) - (launched.t + 800);
      expectEnding(run, { code: 3, message: /exit code 1/ });
      expect(afterFault).toBeLessThan(5000);
      const record = await onlyRecord(stateDir);
      if (cgroupActive) expect(record.cgroup).toMatch(new RegExp(`/vigil-${record.id}$`));
      else expect(record.cgroup ?? null).toBe(null);
      // Every escapee that vigil could know of is gone: with the cgroup, both.
      const left = withMarker(marker).filter((pid) => cgroupActive || hasLaunchMarker(pid));
      expect(left).toEqual([]);
      if (cgroupActive) expect(existsSync(record.cgroup ?? '')).toBe(false);
    });
  });
}

describe('a record vigil cannot verify', () => {
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
    expectEnding(stop, { code: 1, message: /no process start time/ });
    expect(isAlive(pid)).toBe(true);
  });
});
