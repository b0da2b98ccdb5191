// Temporary directories that tests create and always remove.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];

// Creates a fresh directory under the system temp dir; removeTempDirs() deletes every one made so far.
export const makeTempDir = async (prefix = 'vigil-test-'): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
};

// Deletes the directories made by makeTempDir (call in afterEach).
export const removeTempDirs = async (): Promise<void> => {
  const dirs = created.splice(0);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
};

// A temporary vigil state directory plus the environment that points vigil at it.
export const makeStateEnv = async (): Promise<{ dir: string; stateDir: string; env: NodeJS.ProcessEnv }> => {
  const dir = await makeTempDir('vigil-state-');
  return { dir, stateDir: join(dir, 'vigil'), env: { ...process.env, XDG_STATE_HOME: dir } };
};
