// One start per host and port at a time: a lock file made with O_EXCL in the state directory, holding its owner's
// pid and /proc start time. It covers the moment between the port check and the launch record; after that the
// record itself (a live launch on that port) keeps the next start out. A lock whose owner is gone is stale and taken.
// Hand-written: lock packages (proper-lockfile) go by mtime, not by whether the owning process still lives.
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive, readProcStat } from '../hosts/proc.ts';

// Who holds a lock.
export interface LockOwner {
  pid: number;
  proc_start: number | null;
}

export type PortLock = { held: true; release: () => void } | { held: false; owner: LockOwner };

const locksDir = (stateDir: string): string => join(stateDir, 'locks');

// The lock file for a host and port, e.g. locks/local-30000.lock.
export const portLockPath = (stateDir: string, host: string, port: number): string =>
  join(locksDir(stateDir), `${host.replace(/[^A-Za-z0-9._-]/g, '_')}-${port}.lock`);

// Takes the lock, or says who holds it. Throws only when the state directory cannot be written.
export const acquirePortLock = (stateDir: string, host: string, port: number): PortLock => {
  mkdirSync(locksDir(stateDir), { recursive: true, mode: 0o700 });
  const path = portLockPath(stateDir, host, port);
  const me: LockOwner = { pid: process.pid, proc_start: readProcStat(process.pid)?.starttime ?? null };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(path);
      if (owner !== null && ownerAlive(owner)) return { held: false, owner };
      removeStale(path);
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(me)}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    return {
      held: true,
      release: () => {
        if (released) return;
        released = true;
        if (readOwner(path)?.pid === me.pid) rmSync(path, { force: true });
      },
    };
  }
  const owner = readOwner(path);
  return { held: false, owner: owner ?? { pid: 0, proc_start: null } };
};

const ownerAlive = (owner: LockOwner): boolean =>
  owner.pid > 0 && isProcessAlive(owner.pid, owner.proc_start ?? undefined);

// A lock half-written by an owner that died between open and write reads as null: stale as well.
const readOwner = (path: string): LockOwner | null => {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number'
      ? { pid: parsed.pid, proc_start: typeof parsed.proc_start === 'number' ? parsed.proc_start : null }
      : null;
  } catch {
    return null;
  }
};

// Moves a stale lock aside before deleting it, so two starts that both found it stale cannot delete a fresh one:
// only one rename succeeds, and the other retries the O_EXCL create.
// Should the file moved aside turn out to be a fresh lock (another start broke the stale one and took it meanwhile),
// it is put back with link(), which never replaces a file.
const removeStale = (path: string): void => {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else removed it first
  }
  const moved = readOwner(aside);
  if (moved !== null && ownerAlive(moved)) {
    try {
      linkSync(aside, path);
    } catch {
      // a newer lock is in place already
    }
  }
  rmSync(aside, { force: true });
};
