// Streams a log file in fixed chunks and passes on only the lines that matter: those containing one of the
// caller's literals (with a few lines above them), plus the file's last lines. Memory stays flat whatever the
// file's size: a few chunk buffers, searched (on a large file, by worker threads) while the next one is read.
// Hand-written: line readers (readline, split2) build a string per line, which is far too slow for 1 GB in seconds;
// here each chunk is searched in place (line-finder.ts) and only the lines that matter become strings.
import { open, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { createLineSearch, type LineSearch } from './line-finder.ts';
import { createSearchPool, type SearchPool } from './search-pool.ts';
import type { RawLine } from '../../logs/types.ts';

// What to look for in the file and how to read it.
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
  /** From how many bytes to read the search is spread over worker threads (default 32 MiB). */
  parallelFromBytes?: number;
  /** Where to begin: a line start and its line number, worked out from the open file (null: its first line). */
  from?: (handle: FileHandle, size: number) => Promise<{ offset: number; line: number } | null>;
}

const NEWLINE = 0x0a;
/**
 * The start of an over-long line that is kept; the rest of it is skipped (prefixes and messages come first).
 * Each buffer keeps this much room in front of its read, for the unfinished line carried over from the last chunk.
 */
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

// The first newline in buffer[from, to), or -1.
const newlineIn = (buffer: Buffer, from: number, to: number): number => {
  const at = from < to ? buffer.indexOf(NEWLINE, from) : -1;
  return at < to ? at : -1;
};

/** From this many bytes to read, the search is spread over worker threads (search-pool.ts). */
const PARALLEL_FROM_BYTES = 32 << 20;
/** At most this many lines a batch. */
const BATCH_LINES = 1024;
/** At most this many search workers: past it the main thread's reading and counting is the limit. */
const MAX_WORKERS = 4;

// A region of complete lines read into one buffer, waiting to be searched and passed on.
interface Chunk {
  slot: number;
  from: number;
  to: number;
  /** File offset of the buffer's index 0. */
  fileOffsetOfHead: number;
  literals: readonly string[];
  /** The search running on a worker, or null: searched when its turn comes, with the literals of that moment. */
  starts: Promise<number[]> | null;
}

// Whether a search for `used` found every line a search for `wanted` would (the literals usually only shrink).
const covers = (used: readonly string[], wanted: readonly string[]): boolean => {
  if (used === wanted) return true;
  const have = new Set(used);
  return wanted.every((literal) => have.has(literal));
};

// Yields batches of the lines that matter, in file order, with 1-based file line numbers.
export async function* scanLogFile(options: ScanLogFileOptions): AsyncGenerator<RawLine[]> {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const handle = await open(options.path, 'r');
  let pending: Promise<number> = Promise.resolve(0);
  let pool: SearchPool | null = null;
  const chunks: Chunk[] = [];
  try {
    // The file as it is now: a log still being written is read up to its size at open.
    const size = (await handle.stat()).size;
    const tailStart = await findTailStart(handle, size, options.tailLines);
    const begin = (await options.from?.(handle, size)) ?? { offset: 0, line: 1 };
    // Buffers no larger than the file: most logs are small, and zero-filling megabytes for each dominated their time.
    const bufferBytes = LONG_LINE_HEAD + Math.min(chunkBytes, size - begin.offset);
    const workers =
      size - begin.offset >= (options.parallelFromBytes ?? PARALLEL_FROM_BYTES)
        ? Math.min(MAX_WORKERS, availableParallelism())
        : 0;
    // With workers, a buffer for each chunk being searched, one being read and one being passed on.
    pool = workers > 0 ? createSearchPool({ workers, slots: workers + 2, bufferBytes }) : null;
    const buffers = pool?.buffers ?? [Buffer.alloc(bufferBytes), Buffer.alloc(bufferBytes)];
    const search = createLineSearch();
    const bufferAt = (slot: number): Buffer => buffers[slot] as Buffer;
    // Each read lands at LONG_LINE_HEAD in its buffer; the unfinished line before it is copied just in front.
    const readAt = (slot: number, at: number): Promise<number> =>
      handle
        .read(bufferAt(slot), LONG_LINE_HEAD, Math.min(chunkBytes, size - at), at)
        .then((read) => read.bytesRead);
    let lineNumber = begin.line;
    // The lines of the oldest chunk that matter; its line numbers follow from the newlines of the chunks before it.
    const passOn = async (chunk: Chunk): Promise<LineSpots> => {
      const buffer = bufferAt(chunk.slot);
      const literals = options.needles();
      let starts: number[];
      if (chunk.starts === null || !covers(chunk.literals, literals)) {
        chunk.starts?.catch(() => []);
        search.setLiterals(literals);
        starts = search.lineStarts(buffer, chunk.from, chunk.to);
      } else starts = await chunk.starts;
      const spots = findLines(starts, search, buffer, chunk.from, chunk.to, {
        fileOffsetOfHead: chunk.fileOffsetOfHead,
        tailStart,
        firstLine: lineNumber,
        contextLines: options.contextLines ?? 0,
      });
      lineNumber += spots.newlines;
      return spots;
    };
    let slot = 0;
    let position = begin.offset;
    let carry = 0; // bytes of an unfinished line in front of LONG_LINE_HEAD
    let skippingLongLine = false;
    pending = size > position ? readAt(slot, position) : Promise.resolve(0);
    for (;;) {
      options.signal?.throwIfAborted();
      const bytesRead = await pending;
      const buffer = bufferAt(slot);
      const nextSlot = (slot + 1) % buffers.length;
      const chunkStart = position; // file offset of buffer[LONG_LINE_HEAD]
      position += bytesRead;
      const atEnd = position >= size || bytesRead === 0;
      let from = LONG_LINE_HEAD - carry;
      let end = LONG_LINE_HEAD + bytesRead;
      // Drop the rest of an over-long line: its head stays, directly followed by the newline that ends it.
      const newline = skippingLongLine ? newlineIn(buffer, LONG_LINE_HEAD, end) : -1;
      const wholeChunkSkipped = skippingLongLine && newline === -1 && !atEnd;
      let complete = from;
      if (!wholeChunkSkipped) {
        if (skippingLongLine) {
          if (newline === -1) end = LONG_LINE_HEAD;
          else {
            buffer.copy(buffer, newline - carry, from, LONG_LINE_HEAD);
            from = newline - carry;
          }
          skippingLongLine = false;
        }
        const lastNewline = end > from ? buffer.lastIndexOf(NEWLINE, end - 1) : -1;
        complete = atEnd ? end : Math.max(from, lastNewline + 1);
        if (complete > from) {
          // A worker searches with the literals of now; without workers, the chunk's turn asks for them.
          const literals = pool === null ? [] : options.needles();
          chunks.push({
            slot,
            from,
            to: complete,
            fileOffsetOfHead: chunkStart - LONG_LINE_HEAD,
            literals,
            starts: pool?.search(slot, from, complete, literals) ?? null,
          });
        }
      }
      // The next read goes into the next buffer: the chunk still in it is passed on first.
      while (chunks[0] !== undefined && (atEnd || chunks[0].slot === nextSlot)) {
        const chunk = chunks.shift() as Chunk;
        const spots = await passOn(chunk);
        // In batches of a bounded size, each made only when asked for: a chunk whose every line matters (a log of
        // access lines) never lives as strings all at once (under a small heap, those batches filled the old space).
        for (let at = 0; at < spots.starts.length; at += BATCH_LINES)
          yield linesAt(bufferAt(chunk.slot), chunk.to, spots, at, at + BATCH_LINES);
      }
      if (atEnd) break;
      const next = bufferAt(nextSlot);
      if (wholeChunkSkipped) buffer.copy(next, from, from, LONG_LINE_HEAD);
      else {
        // The unfinished last line goes in front of the next read; past LONG_LINE_HEAD only its head is kept.
        carry = Math.min(end - complete, LONG_LINE_HEAD);
        skippingLongLine = end - complete > LONG_LINE_HEAD;
        buffer.copy(next, LONG_LINE_HEAD - carry, complete, complete + carry);
      }
      slot = nextSlot;
      pending = readAt(slot, position);
    }
  } finally {
    // Searches and a read ahead may still be running: let them end before the file closes.
    for (const chunk of chunks) chunk.starts?.catch(() => []);
    await pending.catch(() => 0);
    await pool?.close();
    await handle.close();
  }
}

interface CollectPlace {
  /** Maps a buffer index to a file offset (index + this), for the tail. */
  fileOffsetOfHead: number;
  tailStart: number;
  /** Line number of the region's first line. */
  firstLine: number;
  contextLines: number;
}

// The start of the line before the one starting at `start` (start > from), not before `from`.
const previousLineStart = (buffer: Buffer, from: number, start: number): number =>
  start - from < 2 ? from : Math.max(from, buffer.lastIndexOf(NEWLINE, start - 2) + 1);

// Where the lines that matter start in a region, with their line numbers, and the region's newlines.
interface LineSpots {
  starts: number[];
  numbers: number[];
  newlines: number;
}

// The lines of buffer[from, to) (complete lines) found to contain a needle (`found`, ascending), with the lines above
// them, and those that start at or after the tail, in order, with their line numbers.
const findLines = (
  found: readonly number[],
  search: LineSearch,
  buffer: Buffer,
  from: number,
  to: number,
  place: CollectPlace,
): LineSpots => {
  const candidates: number[] = [];
  for (const line of found) {
    let start = line;
    candidates.push(start);
    for (let k = 0; k < place.contextLines && start > from; k++) {
      start = previousLineStart(buffer, from, start);
      candidates.push(start);
    }
  }
  const fromTail = place.tailStart - place.fileOffsetOfHead;
  if (fromTail < to) {
    let start = from;
    if (fromTail > from && buffer[fromTail - 1] !== NEWLINE) {
      const newline = newlineIn(buffer, fromTail, to);
      start = newline === -1 ? to : newline + 1;
    } else if (fromTail > from) start = fromTail;
    while (start < to) {
      candidates.push(start);
      const newline = newlineIn(buffer, start, to);
      start = newline === -1 ? to : newline + 1;
    }
  }
  if (place.contextLines > 0 || fromTail < to) candidates.sort((a, b) => a - b);
  const spots: LineSpots = { starts: [], numbers: [], newlines: 0 };
  let counted = from;
  for (const start of candidates) {
    if (start === spots.starts.at(-1)) continue;
    spots.newlines += search.countNewlines(buffer, counted, start);
    counted = start;
    spots.starts.push(start);
    spots.numbers.push(place.firstLine + spots.newlines);
  }
  spots.newlines += search.countNewlines(buffer, counted, to);
  return spots;
};

// The lines spots.starts[first, end) as strings.
const linesAt = (buffer: Buffer, to: number, spots: LineSpots, first: number, end: number): RawLine[] => {
  const lines: RawLine[] = [];
  for (let at = first; at < Math.min(end, spots.starts.length); at++) {
    const start = spots.starts[at] as number;
    const newline = newlineIn(buffer, start, to);
    lines.push({
      line: spots.numbers[at] as number,
      text: buffer.toString('utf8', start, newline === -1 ? to : newline),
    });
  }
  return lines;
};
