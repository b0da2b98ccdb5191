// The live log follower: tails a file from a byte offset with file line numbers, waking on inotify (fs.watch)
// with a slow poll as fallback; a file that is missing, truncated or rotated is a note, never an error.
// Hand-written: tail libraries either pipe `tail -F` or poll, and none reports file line numbers from an offset.
import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { RawLine } from './types.ts';

// Something about the file itself (not a line) the user should know.
export interface LogNote {
  code: 'missing' | 'appeared' | 'truncated' | 'rotated';
  message: string;
}

// Which file, from where, and how to report notes.
export interface FollowLogOptions {
  path: string;
  /** Byte offset to start at (the log's size before the server started); lines before it are counted. */
  fromOffset?: number;
  signal?: AbortSignal;
  onNote?: (note: LogNote) => void;
  /** The fallback poll, for filesystems without inotify; default 500 ms. */
  pollMs?: number;
}

/**
 * A followed line. `partial` marks the unfinished last line of the file when it holds `\r` progress redraws:
 * its text is the redraws completed so far, and the same line comes again, finished, once its newline arrives.
 */
export interface FollowedLine extends RawLine {
  partial?: true;
}

// followLog() plus what the watcher needs at the end of a start.
export interface LogFollower extends AsyncIterable<FollowedLine[]> {
  /** Reads everything written so far; `final` also hands over an unterminated last line (the writer is gone). */
  drain(options?: { final?: boolean }): Promise<FollowedLine[]>;
  /** Stops following and releases the file, the watcher and the timer. */
  close(): Promise<void>;
}

const CHUNK = 1 << 20;
// One chunk per batch: a batch's lines stay young (bigger batches outlive V8's young generation and cost GC).
const MAX_PER_READ = CHUNK;
/** The longest line handed on: the rest of a longer one is skipped up to its newline. Engines' lines are short; a
 * megabyte "line" (a dumped tensor, binary output) would only cost every line matcher time, and delay ready. */
export const MAX_LINE = 64 * 1024;
const DECODE_WINDOW = 32 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

// Follows a log file as batches of lines; ends when the signal aborts or the consumer stops iterating.
export const followLog = (options: FollowLogOptions): AsyncIterable<FollowedLine[]> =>
  createLogFollower(options);

// The follower with drain() and close(), for the watcher, which must read the last lines after a crash.
export const createLogFollower = (options: FollowLogOptions): LogFollower => {
  const reader = createReader(options);
  let closed = false;
  let dirty = true;
  let wakeUp: (() => void) | null = null;
  let watcher: FSWatcher | null = null;
  const wake = (): void => {
    dirty = true;
    wakeUp?.();
  };
  const poll = setInterval(() => {
    ensureWatcher();
    wake();
  }, options.pollMs ?? 500);
  const ensureWatcher = (): void => {
    if (watcher !== null || closed) return;
    try {
      const name = basename(options.path);
      watcher = watch(dirname(options.path), (_event, filename) => {
        if (filename === null || filename === name) wake();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null; // the directory does not exist yet: the poll retries
    }
  };
  ensureWatcher();
  const onAbort = (): void => void close();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  // Reads are serialised so drain() and the iterator never read the same bytes twice.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    clearInterval(poll);
    watcher?.close();
    watcher = null;
    options.signal?.removeEventListener('abort', onAbort);
    wakeUp?.();
    await serial(() => reader.close());
  };

  // Read through functions: both flags change while a read is awaited.
  const isClosed = (): boolean => closed;
  const isDirty = (): boolean => dirty;

  const iterate = async function* (): AsyncGenerator<FollowedLine[]> {
    try {
      while (!isClosed()) {
        dirty = false;
        const { lines, more } = await serial(() => reader.read(MAX_PER_READ, false));
        if (isClosed()) return;
        if (lines.length > 0) yield lines;
        // Closed (or aborted) while the consumer held the batch: nobody would wake the wait below.
        if (isClosed()) return;
        if (more || isDirty()) continue;
        await new Promise<void>((resolve) => {
          wakeUp = resolve;
        });
        wakeUp = null;
      }
    } finally {
      await close();
    }
  };

  return {
    [Symbol.asyncIterator]: iterate,
    drain: async ({ final = false } = {}) =>
      closed ? [] : (await serial(() => reader.read(Number.POSITIVE_INFINITY, final))).lines,
    close,
  };
};

interface Reader {
  read(limit: number, final: boolean): Promise<{ lines: FollowedLine[]; more: boolean }>;
  close(): Promise<void>;
}

// The file side: open, detect rotation and truncation, split lines, count line numbers.
const createReader = (options: FollowLogOptions): Reader => {
  const note = options.onNote ?? (() => undefined);
  let handle: FileHandle | null = null;
  let inode = -1;
  let position = 0;
  let lineNo = 1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let partialSent = 0;
  let first = true;
  let notedMissing = false;
  // Set after a line was cut at MAX_LINE: bytes are dropped until its newline.
  let skipping = false;
  const buffer = Buffer.allocUnsafe(CHUNK);

  const openFile = async (startAt: number): Promise<boolean> => {
    let opened: FileHandle;
    try {
      opened = await open(options.path, 'r');
    } catch {
      if (!notedMissing)
        note({ code: 'missing', message: `${options.path} does not exist yet; waiting for it` });
      notedMissing = true;
      return false;
    }
    const info = await opened.stat();
    handle = opened;
    inode = info.ino;
    if (notedMissing) note({ code: 'appeared', message: `${options.path} appeared` });
    notedMissing = false;
    position = startAt <= info.size ? startAt : 0;
    lineNo = position === 0 ? 1 : (await countNewlines(opened, position)) + 1;
    return true;
  };

  const takeLine = (lines: FollowedLine[], bytes: Buffer): void => {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    // A cut line may end inside a multi-byte character: its broken tail is dropped.
    const text = bytes.toString('utf8', 0, Math.min(end, MAX_LINE));
    lines.push({ line: lineNo, text: end > MAX_LINE ? text.replace(/\uFFFD+$/, '') : text });
  };

  const flushPending = (lines: FollowedLine[]): void => {
    if (pendingBytes === 0) return;
    takeLine(lines, Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
    partialSent = 0;
    lineNo++;
  };

  // Decodes complete lines a window at a time and splits each string ('\n' never occurs inside a UTF-8 sequence):
  // far cheaper than decoding line by line, and windows keep every string small (V8 allocates strings over
  // ~128 KB in its large-object space, several times slower per byte).
  const split = (lines: FollowedLine[], whole: Buffer): void => {
    let chunk = whole;
    if (skipping) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) return;
      skipping = false;
      lineNo++;
      chunk = chunk.subarray(end + 1);
    }
    const lastNl = chunk.lastIndexOf(NEWLINE);
    let start = 0;
    if (lastNl !== -1 && pendingBytes > 0) {
      const firstNl = chunk.indexOf(NEWLINE);
      pending.push(chunk.subarray(0, firstNl));
      takeLine(lines, Buffer.concat(pending));
      lineNo++;
      pending = [];
      pendingBytes = 0;
      partialSent = 0;
      start = firstNl + 1;
    }
    while (start <= lastNl) {
      let end = start + DECODE_WINDOW >= lastNl ? lastNl : chunk.lastIndexOf(NEWLINE, start + DECODE_WINDOW);
      if (end < start) end = chunk.indexOf(NEWLINE, start);
      for (const part of chunk.toString('utf8', start, end).split('\n'))
        lines.push({ line: lineNo++, text: capLine(part.endsWith('\r') ? part.slice(0, -1) : part) });
      start = end + 1;
    }
    if (lastNl + 1 < chunk.length) {
      pending.push(Buffer.from(chunk.subarray(lastNl + 1)));
      pendingBytes += chunk.length - lastNl - 1;
      if (pendingBytes > MAX_LINE) {
        // A "line" this long is not a log line: its first MAX_LINE bytes are handed on, the rest is skipped.
        takeLine(lines, Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
        partialSent = 0;
        skipping = true;
      }
    }
  };

  // An unfinished line holding `\r` redraws: hand over the redraws completed so far.
  const partial = (lines: FollowedLine[]): void => {
    if (pendingBytes === 0) return;
    const bytes = Buffer.concat(pending);
    const lastCr = bytes.lastIndexOf(CR);
    if (lastCr <= 0 || lastCr <= partialSent) return;
    partialSent = lastCr;
    lines.push({ line: lineNo, text: bytes.toString('utf8', 0, lastCr), partial: true });
  };

  const readToLimit = async (lines: FollowedLine[], limit: number): Promise<boolean> => {
    if (handle === null) return false;
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) return false;
      position += bytesRead;
      total += bytesRead;
      split(lines, buffer.subarray(0, bytesRead));
      if (total >= limit) return true;
    }
  };

  return {
    async read(limit, final) {
      const lines: FollowedLine[] = [];
      if (handle === null) {
        const startAt = first ? (options.fromOffset ?? 0) : 0;
        if (!(await openFile(startAt))) return { lines, more: false };
        first = false;
      }
      const current = await stat(options.path).catch(() => null);
      if (current !== null && current.ino !== inode) {
        await readToLimit(lines, Number.POSITIVE_INFINITY);
        flushPending(lines);
        await handle?.close();
        handle = null;
        skipping = false;
        note({ code: 'rotated', message: `${options.path} was replaced (rotated); following the new file` });
        if (!(await openFile(0))) return { lines, more: false };
      }
      const size = handle === null ? 0 : (await handle.stat()).size;
      if (size < position) {
        flushPending(lines);
        note({ code: 'truncated', message: `${options.path} was truncated; reading it from the start` });
        position = 0;
        lineNo = 1;
        skipping = false;
      }
      const more = await readToLimit(lines, limit);
      if (final) flushPending(lines);
      else if (!more) partial(lines);
      return { lines, more };
    },
    async close() {
      await handle?.close();
      handle = null;
    },
  };
};

const capLine = (text: string): string => (text.length > MAX_LINE ? text.slice(0, MAX_LINE) : text);

// Counts the newlines before a byte offset, for file line numbers.
const countNewlines = async (handle: FileHandle, end: number): Promise<number> => {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let count = 0;
  let at = 0;
  while (at < end) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, end - at), at);
    if (bytesRead === 0) break;
    const filled = buffer.subarray(0, bytesRead);
    for (let i = filled.indexOf(NEWLINE); i !== -1; i = filled.indexOf(NEWLINE, i + 1)) count++;
    at += bytesRead;
  }
  return count;
};
