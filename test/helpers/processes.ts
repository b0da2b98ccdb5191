// Process-tree assertions for tests: which processes of a session or group are alive, and cleanup that
// leaves nothing behind. Reads /proc directly; zombies count as dead.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LiveProcess {
  pid: number;
  pgid: number;
  sid: number;
  state: string;
  command: string;
}

const readStat = (pid: number): { state: string; pgid: number; sid: number } | null => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', pgid: Number(fields[2]), sid: Number(fields[3]) };
  } catch {
    return null;
  }
};

const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
};

// The live (non-zombie) processes whose session or process group is one of the given ids.
export const treeProcesses = (ids: { sid?: number; pgid?: number }): LiveProcess[] => {
  const found: LiveProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = readStat(pid);
    if (stat === null || stat.state === 'Z' || stat.state === 'X') continue;
    if (
      (ids.sid !== undefined && stat.sid === ids.sid) ||
      (ids.pgid !== undefined && stat.pgid === ids.pgid)
    ) {
      found.push({ pid, ...stat, command: commandOf(pid) });
    }
  }
  return found;
};

// Whether a pid is alive and not a zombie.
export const isAlive = (pid: number): boolean => {
  const stat = readStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
};

// Waits (up to `withinMs`) until no process of the session/group is left; throws listing the survivors.
export const expectNoProcessLeft = async (
  ids: { sid: number; pgid?: number },
  withinMs = 5000,
): Promise<void> => {
  const deadline = Date.now() + withinMs;
  let left = treeProcesses({ sid: ids.sid, pgid: ids.pgid ?? ids.sid });
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = treeProcesses({ sid: ids.sid, pgid: ids.pgid ?? ids.sid });
  }
  if (left.length > 0) {
    throw new Error(
      `processes of session ${ids.sid} are still alive: ${left.map((p) => `${p.pid} [${p.state}] ${p.command}`).join('; ')}`,
    );
  }
};

// Waits until a pid is alive (a server came up), up to withinMs.
export const waitForAlive = async (pid: number, withinMs = 5000): Promise<boolean> => {
  const deadline = Date.now() + withinMs;
  while (!isAlive(pid) && Date.now() < deadline) await sleep(20);
  return isAlive(pid);
};

const tracked = new Set<number>();

// Remembers a session to kill in afterEach, whatever the test did.
export const trackSession = (sid: number): void => {
  tracked.add(sid);
};

// SIGKILLs every process of the tracked sessions (and their groups), then forgets them.
export const killTrackedSessions = async (): Promise<void> => {
  for (const sid of tracked) {
    for (const p of treeProcesses({ sid, pgid: sid })) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  for (const sid of tracked) await expectNoProcessLeft({ sid }, 5000).catch(() => undefined);
  tracked.clear();
};
