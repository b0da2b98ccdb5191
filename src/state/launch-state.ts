// The live state of a recorded launch (`vigil status`) and stopping it (`vigil stop`), on this machine.
import { listTree, stopTree, type ProcessTree, type StopTreeResult } from '../hosts/kill.ts';
import { launchMarker } from '../hosts/proc.ts';
import { VigilError } from '../errors.ts';
import { updateLaunchRecord, type LaunchRecord } from './records.ts';

// A record with what /proc says about it now.
export interface LaunchState {
  record: LaunchRecord;
  /** alive while the leader or any process of its session or group runs (zombies count as dead). */
  state: 'alive' | 'exited';
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

// What `vigil stop` did.
export interface StopLaunchResult extends StopTreeResult {
  /** Nothing of the launch was running any more. */
  alreadyExited: boolean;
}

// Stops a launch's whole tree and records it; throws E_HOST for a launch on another machine.
export const stopLaunch = async (
  stateDir: string,
  record: LaunchRecord,
  options: { graceMs: number; skipGrace?: AbortSignal },
): Promise<StopLaunchResult> => {
  if (record.host !== 'local') {
    throw new VigilError(
      'E_HOST',
      `launch ${record.id} runs on ${record.host}; stopping remote launches is not available in this build`,
      {
        hint: `run vigil stop ${record.id} on ${record.host}`,
      },
    );
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

// The processes of a recorded launch: its leader, session and group, and what carries its marker.
export const treeOf = (record: LaunchRecord): ProcessTree => ({
  pid: record.pid,
  pgid: record.pgid,
  sid: record.sid,
  starttime: record.proc_start,
  marker: launchMarker(record.id),
});
