// One rewrite per checkpoint folder at a time: a lock file holding the writer's pid. A lock whose process is
// gone was left by a killed run; recovery then takes over. A live one means another vigil is mid-rewrite,
// and repairing its files under it would undo its work.
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckpointError } from './errors.ts';

export const LOCK_NAME = '.vigil-ckpt.lock';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

// Throws when another live process holds the folder's lock; removes a stale one.
export const assertNotBusy = async (dir: string): Promise<void> => {
  const path = join(dir, LOCK_NAME);
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number.parseInt(text, 10);
  if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) {
    throw new CheckpointError(
      'Interrupted',
      `another vigil process (pid ${pid}) is rewriting this checkpoint`,
      `wait for it to finish; if no such process is running, delete ${path}`,
      dir,
    );
  }
  await rm(path, { force: true });
};

// Takes the folder's lock; resolves to its release function.
export const lockFolder = async (dir: string): Promise<() => Promise<void>> => {
  await assertNotBusy(dir);
  const path = join(dir, LOCK_NAME);
  const handle = await open(path, 'wx', 0o600).catch((error: unknown) => {
    throw new CheckpointError(
      'Interrupted',
      'another vigil process started rewriting this checkpoint at the same moment',
      'run the command again once it has finished',
      dir,
      error,
    );
  });
  try {
    await handle.writeFile(String(process.pid));
  } finally {
    await handle.close();
  }
  return () => rm(path, { force: true });
};
