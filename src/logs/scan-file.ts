// Streams a log file in fixed chunks and passes on only the lines that matter: those containing one of the
// caller's literals, plus the file's last lines. Memory stays flat whatever the file's size.
// Hand-written: line readers (readline, split2) build a string per line, which is far too slow for 1 GB in seconds;
// here each chunk is searched with String#indexOf (Boyer-Moore) and only the hits become strings.
import { open, type FileHandle } from 'node:fs/promises';
import type { RawLine } from './types.ts';

export interface ScanLogFileOptions {
  path: string;
  /** Literals (ASCII) that make a line worth passing on; asked again before each chunk, so the set can shrink. */
  needles: () => readonly string[];
  /** How many of the file's last lines are always passed on. */
  tailLines: number;
  signal?: AbortSignal;
  /** Bytes read at a time (default 1 MiB). */
  chunkBytes?: number;
}

const NEWLINE = 0x0a;
/** The start of an over-long line that is kept; the rest of it is skipped (prefixes and messages come first). */
const LONG_LINE_HEAD = 64 * 1024;
/** How far back from the end the tail's start is looked for. */
const TAIL_WINDOW = 256 * 1024;

// Finds the byte offset where the file's last `count` lines begin.
const findTailStart = async (handle: FileHandle, size: number, count: number): Promise<number> => {
  if (count <= 0 || size === 0) return size;
  const from = Math.max(0, size - TAIL_WINDOW);
  const buffer = Buffer.allocUnsafe(size - from);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
  const window = buffer.subarray(0, bytesRead);
  // A final newline ends the last line; it does not start another.
  let end = window.at(-1) === NEWLINE ? window.length - 1 : window.length;
  for (let seen = 0; ; seen++) {
    const at = end <= 0 ? -1 : window.lastIndexOf(NEWLINE, end - 1);
    if (at === -1) return from === 0 ? 0 : from + Math.max(0, window.indexOf(NEWLINE) + 1);
    if (seen === count - 1) return from + at + 1;
    end = at;
  }
};

// Counts newlines in buffer[from, to).
const countNewlines = (buffer: Buffer, from: number, to: number): number => {
  let count = 0;
  for (let at = buffer.indexOf(NEWLINE, from); at !== -1 && at < to; at = buffer.indexOf(NEWLINE, at + 1))
    count++;
  return count;
};

// Yields batches of the lines that matter, in file order, with 1-based file line numbers.
export async function* scanLogFile(options: ScanLogFileOptions): AsyncGenerator<RawLine[]> {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const handle = await open(options.path, 'r');
  try {
    // The file as it is now: a log still being written is read up to its size at open.
    const size = (await handle.stat()).size;
    const tailStart = await findTailStart(handle, size, options.tailLines);
    const buffer = Buffer.allocUnsafe(chunkBytes + LONG_LINE_HEAD);
    let carry = 0; // bytes of an unfinished line at the start of `buffer`
    let skippingLongLine = false;
    let position = 0; // file offset of the next read
    let lineNumber = 1; // line number of buffer[0]
    while (position < size || carry > 0) {
      options.signal?.throwIfAborted();
      const want = Math.min(chunkBytes, size - position);
      const { bytesRead } = want > 0 ? await handle.read(buffer, carry, want, position) : { bytesRead: 0 };
      const bufferStart = position - carry; // file offset of buffer[0]
      position += bytesRead;
      const atEnd = position >= size || bytesRead === 0;
      let end = carry + bytesRead;
      if (skippingLongLine) {
        // Drop the rest of an over-long line: keep its head (already in buffer[0, carry)) and resume after it.
        const newline = buffer.indexOf(NEWLINE, carry);
        if (newline === -1 || newline >= end) {
          if (!atEnd) continue;
          end = carry;
          skippingLongLine = false;
        } else {
          buffer.copy(buffer, carry, newline, end);
          end = carry + (end - newline);
          skippingLongLine = false;
        }
      }
      const lastNewline = buffer.lastIndexOf(NEWLINE, end - 1);
      const complete = atEnd ? end : lastNewline + 1;
      if (complete === 0) {
        // No line ends in this chunk: keep reading, up to a head of LONG_LINE_HEAD bytes, then skip the rest.
        carry = Math.min(end, LONG_LINE_HEAD);
        skippingLongLine = end >= LONG_LINE_HEAD;
        continue;
      }
      const batch = collectLines(buffer, complete, options.needles(), bufferStart, tailStart, lineNumber);
      if (batch.length > 0) yield batch;
      lineNumber += countNewlines(buffer, 0, complete);
      carry = end - complete;
      buffer.copy(buffer, 0, complete, end);
      if (atEnd && carry === 0) break;
    }
  } finally {
    await handle.close();
  }
}

// The lines of buffer[0, end) that contain a needle or start at or after `tailStart`, with their line numbers.
const collectLines = (
  buffer: Buffer,
  end: number,
  needles: readonly string[],
  bufferStart: number,
  tailStart: number,
  firstLine: number,
): RawLine[] => {
  // latin1 keeps one character per byte, so string offsets are byte offsets (the needles are ASCII).
  const text = buffer.toString('latin1', 0, end);
  const starts: number[] = [];
  for (const needle of needles) {
    for (let at = text.indexOf(needle); at !== -1;) {
      starts.push(text.lastIndexOf('\n', at) + 1);
      const newline = text.indexOf('\n', at);
      if (newline === -1) break;
      at = text.indexOf(needle, newline + 1);
    }
  }
  for (let start = Math.max(0, tailStart - bufferStart); start < end;) {
    if (start === 0 || text.charCodeAt(start - 1) === NEWLINE) {
      starts.push(start);
      const newline = text.indexOf('\n', start);
      start = newline === -1 ? end : newline + 1;
    } else {
      const newline = text.indexOf('\n', start);
      start = newline === -1 ? end : newline + 1;
    }
  }
  starts.sort((a, b) => a - b);
  const lines: RawLine[] = [];
  let counted = 0;
  let line = firstLine;
  let previous = -1;
  for (const start of starts) {
    if (start === previous) continue;
    previous = start;
    line += countNewlines(buffer, counted, start);
    counted = start;
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? end : newline;
    lines.push({ line, text: buffer.toString('utf8', start, stop) });
  }
  return lines;
};
