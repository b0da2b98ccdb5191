// Before spawning: test-bind the server's port; name the holder when it is taken, and with --replace stop a
// vigil launch that holds it.
import type { Diagnosis } from '../events.ts';
import { findPortHolders, testBindPort, type PortHolder } from '../hosts/port.ts';
import { readProcStat } from '../hosts/proc.ts';
import { stopTree } from '../hosts/kill.ts';
import { listLaunchRecords, updateLaunchRecord, type LaunchRecord } from '../state/records.ts';

// Where the server will bind, and what --replace may do about a holder.
export interface PortCheckInput {
  host: string;
  port: number;
  stateDir: string;
  replace: boolean;
  graceMs: number;
  skipGrace?: AbortSignal;
  redact: (text: string) => string;
  onNotice: (code: string, message: string) => void;
}

// Free, or taken with the diagnosis to report.
export type PortCheck = { free: true } | { free: false; diagnosis: Diagnosis };

// Resolves free, or taken with a port-in-use diagnosis that names the holder and what to do.
export const checkPort = async (input: PortCheckInput): Promise<PortCheck> => {
  const first = await testBindPort(input.host, input.port);
  if (first.free !== false) return { free: true };
  const holders = findPortHolders(input.port);
  const launch = await findHolderLaunch(input.stateDir, holders);
  if (launch !== null && input.replace) {
    input.onNotice(
      'replacing',
      `stopping vigil launch ${launch.id} (pid ${launch.pid}), which holds port ${input.port}`,
    );
    const stopped = await stopTree(
      { pid: launch.pid, pgid: launch.pgid, sid: launch.sid, starttime: launch.proc_start },
      { graceMs: input.graceMs, ...(input.skipGrace === undefined ? {} : { skipGrace: input.skipGrace }) },
    );
    await updateLaunchRecord(input.stateDir, launch.id, {
      outcome: 'stopped',
      ended_at: new Date().toISOString(),
    });
    if (stopped.survivors.length === 0 && (await testBindPort(input.host, input.port)).free !== false) {
      return { free: true };
    }
  }
  return { free: false, diagnosis: describeHolder(input, holders, launch) };
};

// The launch whose session holds the port, if any.
const findHolderLaunch = async (
  stateDir: string,
  holders: readonly PortHolder[],
): Promise<LaunchRecord | null> => {
  if (holders.length === 0) return null;
  const sessions = new Set(holders.map((h) => readProcStat(h.pid)?.sid ?? -1));
  const records = await listLaunchRecords(stateDir);
  return (
    records.find(
      (r) => r.host === 'local' && (sessions.has(r.sid) || holders.some((h) => h.pid === r.pid)),
    ) ?? null
  );
};

const describeHolder = (
  input: PortCheckInput,
  holders: readonly PortHolder[],
  launch: LaunchRecord | null,
): Diagnosis => {
  const where = `${input.host}:${input.port}`;
  const holder = holders[0];
  if (launch !== null) {
    const url = launch.url ?? `http://127.0.0.1:${input.port}`;
    return {
      class: 'port-in-use',
      summary: `port ${input.port} is already in use by vigil launch ${launch.id} (pid ${launch.pid})`,
      evidence: [],
      advice: [
        `stop it: vigil stop ${launch.id}`,
        `or watch it instead: vigil wait ${url}`,
        `or launch with --replace to stop it first`,
      ],
    };
  }
  if (holder !== undefined) {
    return {
      class: 'port-in-use',
      summary: `port ${input.port} is already in use by pid ${holder.pid} (${input.redact(holder.command)})`,
      evidence: [],
      advice: [`stop process ${holder.pid}, or give the server another --port`],
    };
  }
  return {
    class: 'port-in-use',
    summary: `${where} is already in use (the process holding it is not visible from here)`,
    evidence: [],
    advice: ['stop whatever listens there, or give the server another --port'],
  };
};
