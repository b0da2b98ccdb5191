// Streaming over byte ranges with two fixed buffers (read the next chunk while the last one is written), so
// memory stays the same whatever the file's size. Node has no range copy_file_range, hence the loop.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

export const CHUNK = 16 * 1024 * 1024;

const readFully = async (
  fd: FileHandle,
  buffer: Buffer,
  length: number,
  position: number,
): Promise<number> => {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fd.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
};

const writeFully = async (
  fd: FileHandle,
  buffer: Buffer,
  length: number,
  position: number,
): Promise<void> => {
  let done = 0;
  while (done < length) {
    const { bytesWritten } = await fd.write(buffer, done, length - done, position + done);
    done += bytesWritten;
  }
};

// Calls `each` on consecutive chunks of [offset, offset + length) of fd.
const eachChunk = async (
  fd: FileHandle,
  offset: number,
  length: number,
  each: (chunk: Buffer, at: number) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<void> => {
  const size = Math.min(CHUNK, Math.max(length, 1));
  const buffers: [Buffer, Buffer] = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
  let at = 0;
  let pending = length > 0 ? readFully(fd, buffers[0], Math.min(size, length), offset) : null;
  let turn: 0 | 1 = 0;
  while (pending !== null) {
    signal?.throwIfAborted();
    const got = await pending;
    if (got === 0) throw new Error(`unexpected end of file at byte ${offset + at}`);
    const current = buffers[turn];
    const nextAt = at + got;
    turn = turn === 0 ? 1 : 0;
    pending =
      nextAt < length ? readFully(fd, buffers[turn], Math.min(size, length - nextAt), offset + nextAt) : null;
    await each(current.subarray(0, got), at);
    at = nextAt;
  }
};

// Copies length bytes from src at srcOffset to dst at dstOffset.
export const copyRange = async (
  src: FileHandle,
  srcOffset: number,
  dst: FileHandle,
  dstOffset: number,
  length: number,
  options: { signal?: AbortSignal; afterFirstChunk?: () => void } = {},
): Promise<void> => {
  let first = true;
  await eachChunk(
    src,
    srcOffset,
    length,
    async (chunk, at) => {
      await writeFully(dst, chunk, chunk.length, dstOffset + at);
      if (first) {
        first = false;
        options.afterFirstChunk?.();
      }
    },
    options.signal,
  );
};

// The offset (relative to the ranges) of the first differing byte, or null when the ranges are equal.
export const firstDifference = async (
  a: FileHandle,
  aOffset: number,
  b: FileHandle,
  bOffset: number,
  length: number,
  signal?: AbortSignal,
): Promise<number | null> => {
  const other = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(length, 1)));
  let found: number | null = null;
  await eachChunk(
    a,
    aOffset,
    length,
    async (chunk, at) => {
      if (found !== null) return;
      const got = await readFully(b, other, chunk.length, bOffset + at);
      if (got !== chunk.length || !chunk.equals(other.subarray(0, got))) {
        let i = 0;
        while (i < got && chunk[i] === other[i]) i++;
        found = at + i;
      }
    },
    signal,
  );
  return found;
};

// SHA-256 of a byte range, hex.
export const hashRange = async (
  fd: FileHandle,
  offset: number,
  length: number,
  signal?: AbortSignal,
): Promise<string> => {
  const hash = createHash('sha256');
  await eachChunk(
    fd,
    offset,
    length,
    (chunk) => {
      hash.update(chunk);
    },
    signal,
  );
  return hash.digest('hex');
};
