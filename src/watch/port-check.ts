// Before spawning: test-bind the server's port; name the holder when it is taken, and with --replace stop a
// vigil launch that holds it.
import type { Diagnosis } from '../events.ts';
import { findPortHolders, testBindPort, type PortHolder } from '../hosts/port.ts';
import { readProcStat } from '../hosts/proc.ts';
import { stopTree } from '../hosts/kill.ts';
import { inspectLaunch, treeOf } from '../state/launch-state.ts';
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
// A live vigil launch recorded on the port blocks the start even before that server opens it (engines open their
// port only after loading the weights), so the check looks at the records first, then test-binds.
export const checkPort = async (input: PortCheckInput): Promise<PortCheck> => {
  const recorded = await findLiveLaunchOnPort(input.stateDir, input.port);
  const first = await testBindPort(input.host, input.port);
  if (first.free !== false && recorded === null) return { free: true };
  const holders = first.free === false ? findPortHolders(input.port) : [];
  const launch = recorded ?? (await findHolderLaunch(input.stateDir, holders));
  if (launch !== null && input.replace && launch.proc_start !== null) {
    input.onNotice(
      'replacing',
      `stopping vigil launch ${launch.id} (pid ${launch.pid}), which holds port ${input.port}`,
    );
    const stopped = await stopTree(treeOf(launch), {
      graceMs: input.graceMs,
      ...(input.skipGrace === undefined ? {} : { skipGrace: input.skipGrace }),
    });
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

// A local launch recorded on this port whose processes still run (loading or serving).
const findLiveLaunchOnPort = async (stateDir: string, port: number): Promise<LaunchRecord | null> => {
  // Only records of this port on this host are read (and checked).
  const records = await listLaunchRecords(stateDir, (raw) => raw.port === port && raw.host === 'local');
  return records.find((r) => r.outcome !== 'stopped' && inspectLaunch(r).state === 'alive') ?? null;
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
      summary: `port ${input.port} is already in use by vigil launch ${launch.id} (pid ${launch.pid}${launch.outcome === 'starting' ? ', still starting' : ''})`,
      evidence: [],
      advice: [
        `watch it instead: vigil wait ${url}`,
        `or stop it: vigil stop ${launch.id}`,
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
