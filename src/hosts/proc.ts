// Reads process facts from /proc: state, group, session and start time, zombie-aware.
// Hand-written: no npm package reads /proc/<pid>/stat without spawning `ps`.
import { readdirSync, readFileSync } from 'node:fs';

// The fields of /proc/<pid>/stat that liveness and stopping need.
export interface ProcStat {
  pid: number;
  /** The executable name from the stat line (at most 15 characters). */
  comm: string;
  /** R, S, D, Z, T, ... (`Z` is a zombie: dead, waiting to be reaped). */
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** Clock ticks after boot; a different value for the same pid means the pid was reused. */
  starttime: number;
}

// Parses one /proc/<pid>/stat line; the comm field may itself hold spaces and parentheses.
export const parseProcStat = (text: string): ProcStat | null => {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open === -1 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const rest = text
    .slice(close + 2)
    .trim()
    .split(' ');
  // rest[0] is field 3 (state); field N is rest[N - 3].
  const field = (n: number): number => Number(rest[n - 3]);
  const stat: ProcStat = {
    pid,
    comm: text.slice(open + 1, close),
    state: rest[0] ?? '?',
    ppid: field(4),
    pgid: field(5),
    sid: field(6),
    starttime: field(22),
  };
  return Number.isInteger(stat.pid) && Number.isInteger(stat.sid) ? stat : null;
};

// Reads /proc/<pid>/stat; null when the process does not exist (or /proc is not readable).
export const readProcStat = (pid: number): ProcStat | null => {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
};

// True when the process exists and is not a zombie; with `starttime`, also that the pid was not reused.
export const isProcessAlive = (pid: number, starttime?: number): boolean => {
  const stat = readProcStat(pid);
  if (stat === null || stat.state === 'Z' || stat.state === 'X') return false;
  return starttime === undefined || stat.starttime === starttime;
};

// Every live (non-zombie) process on this machine; used to find the members of a session or group.
export const listProcesses = (): ProcStat[] => {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: ProcStat[] = [];
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const stat = readProcStat(Number(name));
    if (stat !== null && stat.state !== 'Z' && stat.state !== 'X') found.push(stat);
  }
  return found;
};

// The variable every launched server gets (`VIGIL_LAUNCH_ID=<id>`): its descendants inherit it, so a process that
// left the session with setsid is still found by scanning /proc/*/environ.
export const LAUNCH_ID_VAR = 'VIGIL_LAUNCH_ID';

// The environment entry that marks a launch's processes.
export const launchMarker = (id: string): string => `${LAUNCH_ID_VAR}=${id}`;

// The live processes of a session and/or a process group (a launch's whole tree), plus those whose environment
// carries the launch's marker, excluding vigil itself.
export const findTreeMembers = (tree: {
  sid?: number | null;
  pgid?: number | null;
  marker?: string | null;
}): ProcStat[] => {
  const marker = tree.marker === undefined || tree.marker === null ? null : Buffer.from(`\0${tree.marker}\0`);
  return listProcesses().filter(
    (p) =>
      p.pid !== process.pid &&
      ((tree.sid !== undefined && tree.sid !== null && p.sid === tree.sid) ||
        (tree.pgid !== undefined && tree.pgid !== null && p.pgid === tree.pgid) ||
        (marker !== null && environHas(p.pid, marker))),
  );
};

// Whether /proc/<pid>/environ holds the entry (matched with NULs on both sides; the file is read with one in front).
const environHas = (pid: number, entry: Buffer): boolean => {
  try {
    return Buffer.concat([NUL, readFileSync(`/proc/${pid}/environ`)]).includes(entry);
  } catch {
    return false;
  }
};
const NUL = Buffer.from([0]);

// The command line of a process, space-joined, or its comm when the cmdline is empty or unreadable.
export const readCommandLine = (pid: number): string | null => {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const joined = raw.split('\0').filter(Boolean).join(' ');
    if (joined !== '') return joined;
  } catch {
    // fall through to comm
  }
  return readProcStat(pid)?.comm ?? null;
};
