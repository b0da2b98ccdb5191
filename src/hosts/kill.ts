// Stops a launched server's whole tree: SIGTERM to its cgroup, group and session, grace, SIGKILL, then verify.
import { setTimeout as sleep } from 'node:timers/promises';
import { cgroupMembers, killCgroup, removeCgroup } from './cgroup.ts';
import { findTreeMembers, isProcessAlive, readCommandLine, readProcStat } from './proc.ts';

// The ids that make up one launch's processes.
export interface ProcessTree {
  /** The leader; may already be gone. */
  pid: number;
  pgid: number;
  sid: number;
  /** The leader's /proc start time when known, so a reused pid is never signalled. */
  starttime?: number | null;
  /** The launch's environment marker (launchMarker()): finds processes that left the session and group. */
  marker?: string | null;
  /** The launch's own cgroup v2 directory (createLaunchCgroup): holds every process of the launch, escaped or not. */
  cgroup?: string | null;
}

// How patient a stop is.
export interface StopTreeOptions {
  /** Time between SIGTERM and SIGKILL. */
  graceMs: number;
  /** Ends the grace period at once when it aborts (a second Ctrl-C). */
  skipGrace?: AbortSignal;
  /** How long to wait for SIGKILLed processes to disappear. */
  verifyMs?: number;
  /** Called before the first signal, with the number of processes found. */
  onStopping?: (count: number) => void;
  /** The tree's live pids, when the caller listed them (listTree) a moment ago; otherwise the stop lists them. */
  members?: readonly number[];
}

// What a stop did, and what survived it.
export interface StopTreeResult {
  /** How many processes were signalled. */
  signalled: number;
  /** Whether SIGKILL was needed. */
  killed: boolean;
  /** Processes still alive after the verification window. */
  survivors: { pid: number; command: string }[];
}

/** Polling for processes that are not vigil's children: the first check comes quickly (most processes leave within
 * a few ms of SIGTERM), then the period doubles up to this. */
const FIRST_POLL_MS = 2;
const POLL_MS = 50;

// Sends SIGTERM, waits up to the grace period, sends SIGKILL to what is left, and verifies (docs/cli.md, stop).
export const stopTree = async (tree: ProcessTree, options: StopTreeOptions): Promise<StopTreeResult> => {
  const result = await signalUntilGone(tree, options);
  // An emptied cgroup goes too; one that still holds a survivor stays, so the next stop finds it.
  if (tree.cgroup !== undefined && tree.cgroup !== null && result.survivors.length === 0) {
    await removeEmptiedCgroup(tree.cgroup);
  }
  return result;
};

// The kernel may count a process that was just killed as a member for a moment more: a few tries, then it is left
// for the next launch's cleanup of stale cgroups.
const removeEmptiedCgroup = async (path: string): Promise<void> => {
  for (let attempt = 0; attempt < 10 && !removeCgroup(path); attempt++) await sleep(20);
};

const signalUntilGone = async (tree: ProcessTree, options: StopTreeOptions): Promise<StopTreeResult> => {
  // Members listed a moment ago are as good as a new list: with none left, no process remains that could start
  // one; a member started since then is in the group or cgroup (and gets its signal), or turns up in the rescans.
  const first = options.members === undefined ? listTree(tree) : [...options.members];
  if (first.length === 0) return { signalled: 0, killed: false, survivors: [] };
  options.onStopping?.(first.length);
  signalTree(tree, first, 'SIGTERM');
  const graceOver = await waitUntilGone(tree, first, options.graceMs, options.skipGrace);
  if (graceOver) return { signalled: first.length, killed: false, survivors: [] };
  const left = listTree(tree);
  if (tree.cgroup !== undefined && tree.cgroup !== null) killCgroup(tree.cgroup);
  signalTree(tree, left, 'SIGKILL');
  const gone = await waitUntilGone(tree, left, options.verifyMs ?? 10_000);
  if (gone) return { signalled: first.length, killed: true, survivors: [] };
  const survivors = listTree(tree).map((pid) => ({ pid, command: readCommandLine(pid) ?? '?' }));
  return { signalled: first.length, killed: true, survivors };
};

// The live pids of a launch's tree: its cgroup's members, session members, group members, processes carrying its
// marker, and the leader itself. When the leader's pid now belongs to another process (a different start time),
// its ids were reused: the tree is gone, and nothing under those ids is ours to signal. (Linux hands out a pid
// again only once no process uses it as a session or group id, so while any member lives the ids cannot have been
// reused.)
export const listTree = (tree: ProcessTree): number[] => {
  const leader = readProcStat(tree.pid);
  const marker = tree.marker ?? null;
  // The cgroup is the launch's alone: whatever is in it belongs to the launch (zombies aside).
  const inCgroup =
    tree.cgroup === undefined || tree.cgroup === null
      ? []
      : cgroupMembers(tree.cgroup).filter((pid) => pid !== process.pid && isProcessAlive(pid));
  if (
    leader !== null &&
    tree.starttime !== undefined &&
    tree.starttime !== null &&
    leader.starttime !== tree.starttime
  ) {
    // The ids were reused; processes in the launch's cgroup or carrying its marker are still the launch's.
    const own = marker === null ? [] : findTreeMembers({ marker }).map((p) => p.pid);
    return [...new Set([...inCgroup, ...own])];
  }
  const found = new Set([
    ...inCgroup,
    ...findTreeMembers({ sid: tree.sid, pgid: tree.pgid, marker }).map((p) => p.pid),
  ]);
  if (isProcessAlive(tree.pid, tree.starttime ?? undefined)) found.add(tree.pid);
  return [...found];
};

const signalTree = (tree: ProcessTree, pids: readonly number[], signal: NodeJS.Signals): void => {
  // The group signal only while a member is known: a pgid outlives no process, so it cannot be reused then.
  if (pids.length > 0) sendSignal(-tree.pgid, signal);
  for (const pid of pids) sendSignal(pid, signal);
};

const sendSignal = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone; EPERM: not ours to signal, reported as a survivor if it stays.
  }
};

// Polls until no member is alive (processes vigil did not spawn can only be watched through /proc), starting from
// the pids just signalled; resolves true when gone, false when the time ran out.
const waitUntilGone = async (
  tree: ProcessTree,
  signalled: readonly number[],
  ms: number,
  skip?: AbortSignal,
): Promise<boolean> => {
  const deadline = Date.now() + ms;
  let known = [...signalled];
  let lastScan = Date.now();
  let period = FIRST_POLL_MS;
  for (;;) {
    // Cheap check of the known pids every tick; a full session rescan at most twice a second.
    known = known.filter((pid) => isProcessAlive(pid));
    if (known.length === 0 || Date.now() - lastScan >= 500) {
      known = listTree(tree);
      lastScan = Date.now();
      if (known.length === 0) return true;
    }
    if (Date.now() >= deadline || skip?.aborted === true) return false;
    try {
      await sleep(Math.min(period, Math.max(1, deadline - Date.now())), undefined, {
        ...(skip === undefined ? {} : { signal: skip }),
      });
    } catch {
      return listTree(tree).length === 0;
    }
    period = Math.min(period * 2, POLL_MS);
  }
};
