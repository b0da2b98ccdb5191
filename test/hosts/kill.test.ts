import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { listTree, stopTree } from '../../src/hosts/kill.ts';
import { findTreeMembers, readProcStat } from '../../src/hosts/proc.ts';
import {
  expectNoProcessLeft,
  killTrackedSessions,
  trackSession,
  treeProcesses,
} from '../helpers/processes.ts';

afterEach(killTrackedSessions);

// Starts a detached bash script and waits until its session has `count` processes.
const startTree = async (script: string, count: number): Promise<number> => {
  const child = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
  const sid = child.pid!;
  trackSession(sid);
  child.unref();
  const deadline = Date.now() + 10_000;
  while (findTreeMembers({ sid }).length < count && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  expect(findTreeMembers({ sid })).toHaveLength(count);
  return sid;
};

describe('stopTree', () => {
  it('stops the group and the processes that left it but stayed in the session, with SIGTERM alone', async () => {
    const sid = await startTree('set -m; sleep 60 & sleep 60 & wait', 3);
    const result = await stopTree({ pid: sid, pgid: sid, sid }, { graceMs: 5000 });
    expect(result).toEqual({ signalled: 3, killed: false, survivors: [] });
    await expectNoProcessLeft({ sid }, 1000);
  });

  it('SIGKILLs what ignores SIGTERM after the grace period', async () => {
    const sid = await startTree("trap '' TERM; sleep 60 & trap '' TERM; wait", 2);
    const started = Date.now();
    const result = await stopTree({ pid: sid, pgid: sid, sid }, { graceMs: 300 });
    expect(result.killed).toBe(true);
    expect(result.survivors).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await expectNoProcessLeft({ sid }, 1000);
  });

  it('skips the rest of the grace period when asked to', async () => {
    const sid = await startTree("trap '' TERM; sleep 60 & wait", 2);
    const skip = new AbortController();
    setTimeout(() => {
      skip.abort();
    }, 200);
    const started = Date.now();
    const result = await stopTree({ pid: sid, pgid: sid, sid }, { graceMs: 30_000, skipGrace: skip.signal });
    expect(result.killed).toBe(true);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(treeProcesses({ sid })).toEqual([]);
  });

  it('reports the count before signalling and does nothing for a tree that is gone', async () => {
    const counts: number[] = [];
    const gone = await stopTree(
      { pid: 2 ** 22 + 1, pgid: 2 ** 22 + 1, sid: 2 ** 22 + 1 },
      {
        graceMs: 100,
        onStopping: (n) => counts.push(n),
      },
    );
    expect(gone).toEqual({ signalled: 0, killed: false, survivors: [] });
    expect(counts).toEqual([]);
    const sid = await startTree('sleep 60 & wait', 2);
    await stopTree({ pid: sid, pgid: sid, sid }, { graceMs: 1000, onStopping: (n) => counts.push(n) });
    expect(counts).toEqual([2]);
  });

  it('signals nothing of a tree whose leader pid now belongs to another process', async () => {
    // The ids are those of a live session, but the recorded start time does not match: a reused pid.
    const sid = await startTree('sleep 60 & wait', 2);
    const starttime = readProcStat(sid)!.starttime;
    const result = await stopTree({ pid: sid, pgid: sid, sid, starttime: starttime + 1 }, { graceMs: 100 });
    expect(result.signalled).toBe(0);
    expect(listTree({ pid: sid, pgid: sid, sid, starttime: starttime + 1 })).toEqual([]);
    expect(treeProcesses({ sid })).toHaveLength(2);
    expect(listTree({ pid: sid, pgid: sid, sid, starttime }).sort()).toEqual(
      treeProcesses({ sid })
        .map((p) => p.pid)
        .sort(),
    );
  });

  it('stops from a member list made a moment earlier, and finds a member started since in a group of its own', async () => {
    const sid = await startTree('sleep 60 & (sleep 1; set -m; sleep 60 & wait) & wait', 4);
    const members = listTree({ pid: sid, pgid: sid, sid });
    // The late member is in the session but not in the group: neither the list nor the group signal reach it.
    const deadline = Date.now() + 10_000;
    while (!findTreeMembers({ sid }).some((p) => p.pgid !== sid) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(findTreeMembers({ sid }).some((p) => p.pgid !== sid)).toBe(true);
    const result = await stopTree({ pid: sid, pgid: sid, sid }, { graceMs: 300, members });
    expect(result).toMatchObject({ signalled: 4, killed: true, survivors: [] });
    await expectNoProcessLeft({ sid }, 1000);
  });

  it('signals nothing when the member list made a moment earlier is empty', async () => {
    const counts: number[] = [];
    const sid = await startTree('sleep 60 & wait', 2);
    const result = await stopTree(
      { pid: sid, pgid: sid, sid },
      { graceMs: 100, members: [], onStopping: (n) => counts.push(n) },
    );
    expect(result).toEqual({ signalled: 0, killed: false, survivors: [] });
    expect(counts).toEqual([]);
    expect(treeProcesses({ sid })).toHaveLength(2);
  });
});
