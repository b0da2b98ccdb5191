import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findTreeMembers,
  isProcessAlive,
  listProcesses,
  parseProcStat,
  readCommandLine,
  readProcStat,
} from '../../src/hosts/proc.ts';
import { killTrackedSessions, trackSession, waitForAlive } from '../helpers/processes.ts';

afterEach(killTrackedSessions);

describe('parseProcStat', () => {
  it('reads a comm that holds spaces and parentheses', () => {
    const line = '4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 987654 0 0';
    expect(parseProcStat(line)).toEqual({
      pid: 4242,
      comm: 'my (odd) name',
      state: 'S',
      ppid: 1,
      pgid: 4242,
      sid: 4242,
      starttime: 987654,
    });
  });

  it('rejects text that is not a stat line', () => {
    expect(parseProcStat('garbage')).toBeNull();
  });
});

describe('readProcStat', () => {
  it('reads this process', () => {
    const stat = readProcStat(process.pid);
    expect(stat?.pid).toBe(process.pid);
    expect(stat?.ppid).toBe(process.ppid);
    expect(stat?.state).not.toBe('Z');
  });

  it('is null for a pid that does not exist', () => {
    expect(readProcStat(2 ** 22 + 12345)).toBeNull();
  });
});

describe('isProcessAlive', () => {
  it('counts a zombie as dead', async () => {
    // The shell backgrounds a short sleep, then becomes a long one, which never reaps the first: a zombie.
    const child = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    trackSession(child.pid!);
    const zombie = await new Promise<number>((resolve) => {
      child.stdout.once('data', (data: Buffer) => {
        resolve(Number(data.toString().trim()));
      });
    });
    const deadline = Date.now() + 10_000;
    while (readProcStat(zombie)?.state !== 'Z' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(readProcStat(zombie)?.state).toBe('Z');
    expect(isProcessAlive(zombie)).toBe(false);
    expect(isProcessAlive(child.pid!)).toBe(true);
  });

  it('treats a different start time as a reused pid', () => {
    const stat = readProcStat(process.pid)!;
    expect(isProcessAlive(process.pid, stat.starttime)).toBe(true);
    expect(isProcessAlive(process.pid, stat.starttime + 1)).toBe(false);
  });
});

describe('findTreeMembers', () => {
  it('finds every process of a session, including ones in other process groups', async () => {
    // bash's `set -m` gives each background job its own process group inside the same session.
    const child = spawn('bash', ['-c', 'set -m; sleep 30 & sleep 30 & wait'], {
      detached: true,
      stdio: 'ignore',
    });
    trackSession(child.pid!);
    await waitForAlive(child.pid!);
    const deadline = Date.now() + 10_000;
    // A job is listed from its fork but takes its own group a moment later: wait for three groups.
    const settled = (list: { pgid: number }[]) =>
      list.length === 3 && new Set(list.map((m) => m.pgid)).size === 3;
    let members = findTreeMembers({ sid: child.pid! });
    while (!settled(members) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      members = findTreeMembers({ sid: child.pid! });
    }
    expect(members.map((m) => m.pid)).toContain(child.pid);
    expect(members).toHaveLength(3);
    expect(new Set(members.map((m) => m.pgid)).size).toBe(3);
    expect(findTreeMembers({ pgid: child.pid! }).map((m) => m.pid)).toEqual([child.pid]);
  });

  it('never lists vigil itself', () => {
    const self = readProcStat(process.pid)!;
    expect(findTreeMembers({ sid: self.sid }).map((p) => p.pid)).not.toContain(process.pid);
    expect(listProcesses().map((p) => p.pid)).toContain(process.pid);
  });
});

describe('readCommandLine', () => {
  it('joins the argv of a process', () => {
    expect(readCommandLine(process.pid)).toContain(process.execPath);
  });

  it('is null for a pid that does not exist', () => {
    expect(readCommandLine(2 ** 22 + 12345)).toBeNull();
  });
});
