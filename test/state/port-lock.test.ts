// The port lock: one start per host and port at a time, naming its owner, taken over once the owner is gone.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { acquirePortLock, portLockPath } from '../../src/state/port-lock.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

afterEach(removeTempDirs);

describe('the port lock', () => {
  it('is held once, names its owner, and is taken over when the owner is gone', async () => {
    const { stateDir } = await makeStateEnv();
    const first = acquirePortLock(stateDir, 'local', 30000);
    expect(first.held).toBe(true);
    const second = acquirePortLock(stateDir, 'local', 30000);
    expect(second.held).toBe(false);
    expect(!second.held && second.owner.pid).toBe(process.pid);
    if (first.held) first.release();
    // A lock left by a process that is gone (or a half-written one) is stale.
    writeFileSync(portLockPath(stateDir, 'local', 30000), '{"pid": 4194000, "proc_start": 1}\n');
    const third = acquirePortLock(stateDir, 'local', 30000);
    expect(third.held).toBe(true);
    if (third.held) third.release();
    writeFileSync(portLockPath(stateDir, 'local', 30000), '');
    expect(acquirePortLock(stateDir, 'local', 30000).held).toBe(true);
  });
});
