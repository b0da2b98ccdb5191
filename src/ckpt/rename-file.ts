// Renames tensors inside one safetensors file. In place when the new header fits in the old one's bytes
// (one same-length write after saving a header copy: safe under kill -9, not against power loss); otherwise
// by copy (temp file beside it, fsync, verify every byte, rename over), keeping the original as a backup.
import { link, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { copyRange, firstDifference, hashRange } from './byte-ranges.ts';
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
    return { path, mode: 'unchanged', backup: null, verified: null };
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
  await saveHeaderCopy(path, { old, next, fileSize: header.fileSize });
  crashAt('after-header-copy');
  await writeRegion(path, next);
  crashAt('after-header-write');
  try {
    const written = await checkHeader(path, tensors, header.metadata);
    if (before !== null && (await dataHash(path, written)) !== before) {
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
  return { path, mode: 'in-place', backup: null, verified: before === null ? 'header' : 'header+data' };
};

const renameByCopy = async (
  path: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  options: FileRenameOptions,
): Promise<FileRenameResult> => {
  const next = encodeHeader(tensors, header.metadata);
  if (next === null) throw new Error('unreachable: an unforced header always fits');
  const temp = tempPath(path);
  const dataLength = header.fileSize - header.dataStart;
  const mode = (await stat(path)).mode & 0o777;
  let backup: string | null = null;
  try {
    const src = await open(path, 'r');
    try {
      const dst = await open(temp, 'wx+', mode);
      try {
        await dst.write(next, 0, next.length, 0);
        await copyRange(src, header.dataStart, dst, next.length, dataLength, {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          afterFirstChunk: () => {
            crashAt('mid-copy');
          },
        });
        await dst.sync();
        await checkHeader(temp, tensors, header.metadata);
        const diff = await firstDifference(
          src,
          header.dataStart,
          dst,
          next.length,
          dataLength,
          options.signal,
        );
        if (diff !== null) {
          throw new CheckpointError(
            'VerifyFailed',
            `the copy differs from the original at data byte ${diff}`,
            'the original is unchanged; check the disk and try again',
            path,
          );
        }
      } finally {
        await dst.close();
      }
    } finally {
      await src.close();
    }
    if (options.backup !== false) {
      backup = options.backupPath ?? backupPath(path);
      await link(path, backup);
    }
    crashAt('before-swap');
    await rename(temp, path);
    await syncDir(dirname(path));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { path, mode: 'copy', backup, verified: 'header+data' };
};
