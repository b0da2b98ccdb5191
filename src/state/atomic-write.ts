// Writes a file so that readers see the old content or the new, never half of it: temp file, fsync, rename.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode; state files are 0600. */
  mode?: number;
}

// Replaces path with data atomically (temp file in the same folder, then rename).
export const writeFileAtomic = async (
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> => {
  const mode = options.mode ?? 0o600;
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = tempPath(path);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
};

// A temporary name next to path (same folder, so the rename stays on one filesystem); hidden and unique.
const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
