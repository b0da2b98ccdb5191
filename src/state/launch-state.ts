// The live state of a recorded launch (`vigil status`) and stopping it (`vigil stop`), here or on its host.
import { listTree, stopTree, type ProcessTree, type StopTreeResult } from '../hosts/kill.ts';
import { launchMarker } from '../hosts/proc.ts';
import { launchCgroupOf } from '../hosts/cgroup.ts';
import { VigilError } from '../errors.ts';
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
  const pids = listTree(treeOf(record));
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
  if (record.proc_start === null) {
    // Without the start time a reused pid cannot be told apart: signalling it could hit an unrelated process.
    throw new VigilError(
      'E_STATE',
      `launch ${record.id} has no process start time in its record; vigil cannot tell whether pid ${record.pid} is still its server, so it signals nothing`,
      {
        hint: `check pid ${record.pid} yourself (ps -o pid,lstart,args -p ${record.pid}) and stop it by hand if it is the server`,
      },
    );
  }
  const before = inspectLaunch(record);
  // Said in the record first, so a `vigil up` watching this launch reports a stop rather than a crash; a state
  // directory that cannot be written (a full disk) does not keep the stop from happening.
  if (before.state === 'alive') {
    await updateLaunchRecord(stateDir, record.id, { stop_requested_at: new Date().toISOString() }).catch(
      () => undefined,
    );
  }
  const result = await stopTree(treeOf(record), options);
  if (result.survivors.length === 0) {
    await updateLaunchRecord(stateDir, record.id, {
      outcome: 'stopped',
      ended_at: new Date().toISOString(),
    }).catch(() => undefined);
  }
  return { ...result, alreadyExited: before.state === 'exited' };
};

// The processes of a recorded launch: its cgroup, its leader, session and group, and what carries its marker.
export const treeOf = (record: LaunchRecord): ProcessTree => ({
  pid: record.pid,
  pgid: record.pgid,
  sid: record.sid,
  starttime: record.proc_start,
  marker: launchMarker(record.id),
  cgroup: launchCgroupOf(record.cgroup, record.id),
});
