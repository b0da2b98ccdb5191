// The live state of a recorded launch (`vigil status`) and stopping it (`vigil stop`), here or on its host.
import { listTree, stopTree, type StopTreeResult } from '../hosts/kill.ts';
import type { RemoteOptions } from '../watch/options.ts';
import { hostOfRecord, isRemoteRecord, remoteIdsOf } from './launch-host.ts';
import { updateLaunchRecord, type LaunchRecord } from './records.ts';

// A record with what /proc says about it now.
export interface LaunchState {
  record: LaunchRecord;
  /** alive while the leader or any process of its session or group runs (zombies count as dead); unreachable
   * when its host did not answer. */
  state: 'alive' | 'exited' | 'unreachable';
  /** Why a remote launch is gone or unknown (host rebooted, pid reused, the ssh error). */
  note?: string;
  /** The live processes of the launch. */
  pids: number[];
  ageMs: number;
}

// Reads the live state of one launch from /proc.
export const inspectLaunch = (record: LaunchRecord, now: number = Date.now()): LaunchState => {
  const pids = listTree({
    pid: record.pid,
    pgid: record.pgid,
    sid: record.sid,
    starttime: record.proc_start,
  });
  return {
    record,
    state: pids.length > 0 ? 'alive' : 'exited',
    pids: pids.sort((a, b) => a - b),
    ageMs: Math.max(0, now - Date.parse(record.started_at)),
  };
};

// The live state of many launches: this machine's from /proc, each remote host asked once, all hosts in parallel.
export const inspectLaunches = async (
  records: readonly LaunchRecord[],
  stateDir: string,
  override: RemoteOptions = {},
  now: number = Date.now(),
): Promise<LaunchState[]> => {
  const byHost = new Map<string, LaunchRecord[]>();
  for (const record of records.filter(isRemoteRecord)) {
    byHost.set(record.host, [...(byHost.get(record.host) ?? []), record]);
  }
  const remote = new Map<string, LaunchState>();
  await Promise.all(
    [...byHost.values()].map(async (group) => {
      const [first] = group;
      if (first === undefined) return;
      const ageOf = (r: LaunchRecord): number => Math.max(0, now - Date.parse(r.started_at));
      try {
        const states = await hostOfRecord(first, stateDir, override).states(group.map(remoteIdsOf));
        for (const record of group) {
          const found = states.get(record.id);
          const alive = found?.state === 'alive';
          remote.set(record.id, {
            record,
            state: alive ? 'alive' : 'exited',
            pids: alive ? found.pids : [],
            ageMs: ageOf(record),
            ...(found?.state === 'rebooted' ? { note: 'the host rebooted since the launch' } : {}),
            ...(found?.state === 'reused' ? { note: 'its pid now belongs to another process' } : {}),
          });
        }
      } catch (error) {
        for (const record of group) {
          remote.set(record.id, {
            record,
            state: 'unreachable',
            pids: [],
            ageMs: ageOf(record),
            note: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }),
  );
  return records.map((record) => remote.get(record.id) ?? inspectLaunch(record, now));
};

// What `vigil stop` did.
export interface StopLaunchResult extends StopTreeResult {
  /** Nothing of the launch was running any more. */
  alreadyExited: boolean;
  /** Why nothing was signalled on a remote host although the ids exist: they belong to someone else now. */
  gone?: 'rebooted' | 'reused';
}

// Stops a launch's whole tree and records it; throws E_HOST for a launch on another machine.
export const stopLaunch = async (
  stateDir: string,
  record: LaunchRecord,
  options: { graceMs: number; skipGrace?: AbortSignal; remote?: RemoteOptions },
): Promise<StopLaunchResult> => {
  if (isRemoteRecord(record)) {
    const host = hostOfRecord(record, stateDir, options.remote);
    const stopped = await host.stop(remoteIdsOf(record), options.graceMs);
    if (stopped.survivors.length === 0) {
      await updateLaunchRecord(stateDir, record.id, {
        outcome: 'stopped',
        ended_at: new Date().toISOString(),
      });
    }
    return {
      signalled: stopped.signalled,
      killed: stopped.killed,
      survivors: stopped.survivors,
      alreadyExited: stopped.signalled === 0,
      ...(stopped.gone === null ? {} : { gone: stopped.gone }),
    };
  }
  const before = inspectLaunch(record);
  const result = await stopTree(
    { pid: record.pid, pgid: record.pgid, sid: record.sid, starttime: record.proc_start },
    options,
  );
  if (result.survivors.length === 0) {
    await updateLaunchRecord(stateDir, record.id, { outcome: 'stopped', ended_at: new Date().toISOString() });
  }
  return { ...result, alreadyExited: before.state === 'exited' };
};
