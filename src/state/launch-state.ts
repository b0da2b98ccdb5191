// The live state of a recorded launch (`vigil status`) and stopping it (`vigil stop`), on this machine.
import { listTree, stopTree, type StopTreeResult } from '../hosts/kill.ts';
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
