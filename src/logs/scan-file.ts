// Streams a log file in fixed chunks and passes on only the lines that matter: those containing one of the
// caller's literals, plus the file's last lines. Memory stays flat whatever the file's size.
// Hand-written: line readers (readline, split2) build a string per line, which is far too slow for 1 GB in seconds;
// here each chunk is searched in place with Buffer#indexOf (memchr / Boyer-Moore) and only the hits become strings.
import { open, type FileHandle } from 'node:fs/promises';
import type { RawLine } from './types.ts';

export interface ScanLogFileOptions {
  path: string;
  /** Literals (ASCII) that make a line worth passing on; asked again before each chunk, so the set can shrink. */
  needles: () => readonly string[];
  /** How many of the file's last lines are always passed on. */
  tailLines: number;
  /** How many lines above each matching line are passed on too (default 0). */
  contextLines?: number;
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
      // File offset of buffer[carry]'s byte, minus carry: maps buffer offsets to file offsets (for the tail).
      let bufferStart = position - carry;
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
          bufferStart += newline - carry;
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
      const needles = options.needles().map((needle) => Buffer.from(needle, 'latin1'));
      const batch = collectLines(buffer.subarray(0, complete), needles, {
        bufferStart,
        tailStart,
        firstLine: lineNumber,
        contextLines: options.contextLines ?? 0,
      });
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

interface CollectPlace {
  /** File offset of the region's first byte (for the tail). */
  bufferStart: number;
  tailStart: number;
  /** Line number of the region's first line. */
  firstLine: number;
  contextLines: number;
}

// The start of the line before the one starting at `start` (start > 0).
const previousLineStart = (region: Buffer, start: number): number =>
  start < 2 ? 0 : region.lastIndexOf(NEWLINE, start - 2) + 1;

// The lines of a region of complete lines that contain a needle (with the lines above them), or start at or after
// the tail, in order, with their line numbers.
const collectLines = (region: Buffer, needles: readonly Buffer[], place: CollectPlace): RawLine[] => {
  const end = region.length;
  const starts: number[] = [];
  for (const needle of needles) {
    for (let at = region.indexOf(needle); at !== -1;) {
      let start = region.lastIndexOf(NEWLINE, at) + 1;
      starts.push(start);
      for (let k = 0; k < place.contextLines && start > 0; k++) {
        start = previousLineStart(region, start);
        starts.push(start);
      }
      const newline = region.indexOf(NEWLINE, at);
      if (newline === -1) break;
      at = region.indexOf(needle, newline + 1);
    }
  }
  const fromTail = place.tailStart - place.bufferStart;
  if (fromTail < end) {
    let start = fromTail <= 0 ? 0 : region.lastIndexOf(NEWLINE, fromTail - 1) + 1;
    if (start < fromTail) start = region.indexOf(NEWLINE, fromTail) + 1 || end;
    while (start < end) {
      starts.push(start);
      const newline = region.indexOf(NEWLINE, start);
      start = newline === -1 ? end : newline + 1;
    }
  }
  starts.sort((a, b) => a - b);
  const lines: RawLine[] = [];
  let counted = 0;
  let line = place.firstLine;
  let previous = -1;
  for (const start of starts) {
    if (start === previous) continue;
    previous = start;
    line += countNewlines(region, counted, start);
    counted = start;
    const newline = region.indexOf(NEWLINE, start);
    lines.push({ line, text: region.toString('utf8', start, newline === -1 ? end : newline) });
  }
  return lines;
};
