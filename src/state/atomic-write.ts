// Writes a file so that readers see the old content or the new, never half of it: temp file, fsync, rename.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode; state files are 0600. */
  mode?: number;
  /**
   * fsync the file before the rename and the folder after it (default true), so the new content survives a
   * power cut. Readers never see half a file either way (the rename is atomic); pass false only where losing
   * the new content in a power cut is harmless.
   */
  durable?: boolean;
}

// Replaces path with data atomically (temp file in the same folder, then rename).
export const writeFileAtomic = async (
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> => {
  const mode = options.mode ?? 0o600;
  const durable = options.durable ?? true;
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = tempPath(path);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
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
  if (!durable) return;
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
};

// The same, blocking: for a watch's last small write, where the thread-pool round trips of the asynchronous
// version cost more than the write itself and nothing else waits on the event loop.
export const writeFileAtomicSync = (
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void => {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = tempPath(path);
  const fd = openSync(temp, 'wx', options.mode ?? 0o600);
  try {
    writeFileSync(fd, data);
    if (durable) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (!durable) return;
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
};

// A temporary name next to path (same folder, so the rename stays on one filesystem); hidden and unique.
const tempPath = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
