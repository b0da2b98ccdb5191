// Renames tensors inside one safetensors file. In place when the new header fits in the old one's bytes
// (one same-length write after saving a header copy: safe under kill -9, not against power loss); otherwise
// by copy (temp file beside it, fsync, verify every byte, rename over), keeping the original as a backup.
import { link, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { firstDifference, hashRange } from './byte-ranges.ts';
import { writeRenamedCopy } from './copy-write.ts';
import { crashAt, crashRequested } from './crash-point.ts';
import { encodeHeader } from './encode.ts';
import { CheckpointError } from './errors.ts';
import { syncDir } from './fsync.ts';
import { readHeader, type SafetensorsHeader, type TensorInfo } from './header.ts';
import { removeHeaderCopy, saveHeaderCopy } from './header-copy.ts';
import { backupPath, tempPath } from './side-files.ts';
import { fileSource } from './source.ts';

export type RenameMode = 'in-place' | 'copy' | 'unchanged';

export interface FileRenameOptions {
  /** Keep the original file after a rewrite by copy (default true). */
  backup?: boolean;
  /** Also hash (in place) or compare (copy: always) the tensor data. */
  verifyData?: boolean;
  /** Rewrite by copy even when the header would fit in place. */
  forceCopy?: boolean;
  /** Stream the data through buffers instead of the kernel copy + block insert. */
  streamCopy?: boolean;
  /** Where to keep the original after a rewrite by copy (default: a time-stamped name beside it). */
  backupPath?: string;
  /** Leave the saved header copy for the caller (a folder rename removes them once all files are done). */
  keepHeaderCopy?: boolean;
  signal?: AbortSignal;
}

export interface FileRenameResult {
  path: string;
  mode: RenameMode;
  /** The original, kept after a rewrite by copy. */
  backup: string | null;
  /** What was checked after writing. */
  verified: 'header' | 'header+data' | null;
  /** How a copy was made: kernel copy + block insert, or streamed through buffers. */
  copy: 'kernel' | 'stream' | null;
  /** Milliseconds spent writing (header copy, write, fsync, or the whole copy), in the final fsync alone, and verifying. */
  timings: { write_ms: number; fsync_ms: number; verify_ms: number };
}

// The header after renaming: the same dtypes, shapes and offsets under the new names.
export const renamedTensors = (header: SafetensorsHeader, names: ReadonlyMap<string, string>): TensorInfo[] =>
  header.tensors.map((t) => ({ ...t, name: names.get(t.name) ?? t.name }));

// Whether the rename can happen in place: the new JSON fits in the old header's N bytes.
export const fitsInPlace = (header: SafetensorsHeader, tensors: readonly TensorInfo[]): boolean =>
  encodeHeader(tensors, header.metadata, header.headerLength) !== null;

export const renameInFile = async (
  path: string,
  header: SafetensorsHeader,
  names: ReadonlyMap<string, string>,
  options: FileRenameOptions = {},
): Promise<FileRenameResult> => {
  const tensors = renamedTensors(header, names);
  if (tensors.every((t, i) => t.name === header.tensors[i]?.name)) {
    return {
      path,
      mode: 'unchanged',
      backup: null,
      verified: null,
      copy: null,
      timings: { write_ms: 0, fsync_ms: 0, verify_ms: 0 },
    };
  }
  const inPlace =
    options.forceCopy === true ? null : encodeHeader(tensors, header.metadata, header.headerLength);
  return inPlace === null
    ? renameByCopy(path, header, tensors, options)
    : renameInPlace(path, header, tensors, inPlace, options);
};

const readRegion = async (path: string, length: number): Promise<Buffer> => {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

// Writes `bytes` at offset 0 of path in one positioned write, then fsyncs.
export const writeRegion = async (path: string, bytes: Buffer): Promise<void> => {
  const handle = await open(path, 'r+');
  try {
    if (crashRequested('mid-header-write')) {
      await handle.write(bytes, 0, Math.floor(bytes.length / 2), 0);
      await handle.sync();
      crashAt('mid-header-write');
    }
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, done);
      done += bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
};

const dataHash = async (path: string, header: SafetensorsHeader, signal?: AbortSignal): Promise<string> => {
  const handle = await open(path, 'r');
  try {
    return await hashRange(handle, header.dataStart, header.fileSize - header.dataStart, signal);
  } finally {
    await handle.close();
  }
};

// The header on disk must say exactly what was meant: names, dtypes, shapes, offsets and metadata.
const checkHeader = async (
  path: string,
  expected: readonly TensorInfo[],
  metadata: SafetensorsHeader['metadata'],
): Promise<SafetensorsHeader> => {
  const written = await readHeader(fileSource(path));
  const key = (t: TensorInfo): string => JSON.stringify([t.name, t.dtype, t.shape, t.dataOffsets]);
  const want = expected.map(key).sort();
  const got = written.tensors.map(key).sort();
  if (want.join('\n') !== got.join('\n') || JSON.stringify(written.metadata) !== JSON.stringify(metadata)) {
    throw new CheckpointError(
      'VerifyFailed',
      'the header read back after writing does not match the one written',
      'the file was restored to its previous header; check the disk and try again',
      path,
    );
  }
  return written;
};

const renameInPlace = async (
  path: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  next: Buffer,
  options: FileRenameOptions,
): Promise<FileRenameResult> => {
  const old = await readRegion(path, header.dataStart);
  const before = options.verifyData === true ? await dataHash(path, header, options.signal) : null;
  options.signal?.throwIfAborted();
  const started = performance.now();
  await saveHeaderCopy(path, { old, next, fileSize: header.fileSize });
  crashAt('after-header-copy');
  await writeRegion(path, next);
  crashAt('after-header-write');
  const written = performance.now();
  try {
    const reread = await checkHeader(path, tensors, header.metadata);
    if (before !== null && (await dataHash(path, reread)) !== before) {
      throw new CheckpointError(
        'VerifyFailed',
        'the tensor data changed during the header rewrite',
        'restore the file from its source',
        path,
      );
    }
  } catch (error) {
    await writeRegion(path, old);
    await removeHeaderCopy(path);
    throw error;
  }
  if (options.keepHeaderCopy !== true) await removeHeaderCopy(path);
  return {
    path,
    mode: 'in-place',
    backup: null,
    verified: before === null ? 'header' : 'header+data',
    copy: null,
    timings: { write_ms: written - started, fsync_ms: 0, verify_ms: performance.now() - written },
  };
};

// fsyncs the copy, then checks its header and compares every data byte with the original's.
const syncAndVerify = async (
  path: string,
  temp: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  dataStart: number,
  signal?: AbortSignal,
): Promise<{ synced: number }> => {
  const src = await open(path, 'r');
  try {
    const dst = await open(temp, 'r+');
    try {
      await dst.sync();
      const synced = performance.now();
      await checkHeader(temp, tensors, header.metadata);
      const length = header.fileSize - header.dataStart;
      const diff = await firstDifference(src, header.dataStart, dst, dataStart, length, signal);
      if (diff !== null) {
        throw new CheckpointError(
          'VerifyFailed',
          `the copy differs from the original at data byte ${diff}`,
          'the original is unchanged; check the disk and try again',
          path,
        );
      }
      return { synced };
    } finally {
      await dst.close();
    }
  } finally {
    await src.close();
  }
};

const renameByCopy = async (
  path: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  options: FileRenameOptions,
): Promise<FileRenameResult> => {
  const temp = tempPath(path);
  const mode = (await stat(path)).mode & 0o777;
  try {
    const started = performance.now();
    const copy = await writeRenamedCopy(path, header, tensors, temp, mode, {
      ...(options.streamCopy === true ? { stream: true } : {}),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const copied = performance.now();
    const { synced } = await syncAndVerify(path, temp, header, tensors, copy.dataStart, options.signal);
    const verified = performance.now();
    const backup = options.backup === false ? null : (options.backupPath ?? backupPath(path));
    if (backup !== null) await link(path, backup);
    crashAt('before-swap');
    await rename(temp, path);
    await syncDir(dirname(path));
    return {
      path,
      mode: 'copy',
      backup,
      verified: 'header+data',
      copy: copy.strategy,
      timings: {
        write_ms: synced - started + (performance.now() - verified),
        fsync_ms: synced - copied,
        verify_ms: verified - synced,
      },
    };
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
};
