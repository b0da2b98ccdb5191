// Writes the renamed copy of a file: the new header, then the old data section unchanged. Preferred: the
// kernel copies the file (fs.copyFile: copy_file_range or a reflink), util-linux `fallocate --insert-range`
// shifts it up by whole filesystem blocks (ext4, xfs), and the larger header is written over the front.
// Where that is not available (other filesystems, no fallocate), the data is streamed through two buffers.
import { execFile } from 'node:child_process';
import { constants, copyFile, open, rm, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { copyRange } from './byte-ranges.ts';
import { crashAt } from './crash-point.ts';
import { encodeHeader } from './encode.ts';
import type { SafetensorsHeader, TensorInfo } from './header.ts';

const run = promisify(execFile);
/** Insert-range works in whole blocks; 4 KiB covers ext4 and xfs defaults (a larger block size fails and falls back). */
const BLOCK = 4096;

export interface CopyWrite {
  /** Where the data section starts in the copy. */
  dataStart: number;
  strategy: 'kernel' | 'stream';
}

const withFile = async <T>(path: string, flags: string, fn: (fd: FileHandle) => Promise<T>): Promise<T> => {
  const fd = await open(path, flags);
  try {
    return await fn(fd);
  } finally {
    await fd.close();
  }
};

const kernelCopy = async (
  path: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  temp: string,
  signal?: AbortSignal,
): Promise<CopyWrite> => {
  const minimal = encodeHeader(tensors, header.metadata);
  if (minimal === null) throw new Error('unreachable: an unforced header always fits');
  const grow = Math.ceil(Math.max(0, minimal.length - header.dataStart) / BLOCK) * BLOCK;
  const next = encodeHeader(tensors, header.metadata, header.headerLength + grow);
  if (next === null) throw new Error('unreachable: the grown header fits by construction');
  await copyFile(path, temp, constants.COPYFILE_EXCL);
  crashAt('mid-copy');
  if (grow > 0) {
    await run('fallocate', ['--insert-range', '--offset', '0', '--length', String(grow), temp], {
      ...(signal === undefined ? {} : { signal }),
    });
  }
  await withFile(temp, 'r+', async (fd) => {
    await fd.write(next, 0, next.length, 0);
    return null;
  });
  return { dataStart: next.length, strategy: 'kernel' };
};

const streamCopy = async (
  path: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  temp: string,
  mode: number,
  signal?: AbortSignal,
): Promise<CopyWrite> => {
  const next = encodeHeader(tensors, header.metadata);
  if (next === null) throw new Error('unreachable: an unforced header always fits');
  await withFile(path, 'r', async (src) => {
    const dst = await open(temp, 'wx', mode);
    try {
      await dst.write(next, 0, next.length, 0);
      await copyRange(src, header.dataStart, dst, next.length, header.fileSize - header.dataStart, {
        ...(signal === undefined ? {} : { signal }),
        afterFirstChunk: () => {
          crashAt('mid-copy');
        },
      });
    } finally {
      await dst.close();
    }
  });
  return { dataStart: next.length, strategy: 'stream' };
};

// Writes temp (which must not exist); tries the kernel path first unless `stream` is set.
export const writeRenamedCopy = async (
  path: string,
  header: SafetensorsHeader,
  tensors: readonly TensorInfo[],
  temp: string,
  mode: number,
  options: { stream?: boolean; signal?: AbortSignal } = {},
): Promise<CopyWrite> => {
  if (options.stream !== true) {
    try {
      return await kernelCopy(path, header, tensors, temp, options.signal);
    } catch {
      options.signal?.throwIfAborted();
      await rm(temp, { force: true });
    }
  }
  return streamCopy(path, header, tensors, temp, mode, options.signal);
};
