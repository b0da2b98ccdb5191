// Finds the lines of a buffer that contain any of a set of literals, and counts newlines: the inner loop of
// `vigil diagnose` on a large file. The lines that hold a literal are few, and only they become strings.
// Hand-written: no library searches a Buffer for many literals at once.
import { escapeRegExp } from '../../regexp.ts';

// Searches buffers for lines that hold a literal.
export interface LineSearch {
  /** Sets the literals lines are searched for; literals holding a newline never match, an empty one matches all. */
  setLiterals(literals: readonly string[]): void;
  /** The start of each line of buffer[from, to) that contains a literal, ascending; `from` starts a line. */
  lineStarts(buffer: Buffer, from: number, to: number): number[];
  /** The newlines in buffer[from, to). */
  countNewlines(buffer: Buffer, from: number, to: number): number;
}

// A search with two buffers of its own to read file chunks into (one is searched while the other fills).
export interface LineFinder extends LineSearch {
  readonly buffers: readonly [Buffer, Buffer];
}

export interface LineFinderOptions {
  /** Bytes in each of the two buffers. */
  bufferBytes: number;
}

const NEWLINE = 0x0a;
// Creates a finder with its two buffers.
export const createLineFinder = (options: LineFinderOptions): LineFinder => ({
  ...createLineSearch(),
  buffers: [Buffer.alloc(options.bufferBytes), Buffer.alloc(options.bufferBytes)],
});

// Line starts of every line in buffer[from, to) (an empty literal matches all of them).
const everyLine = (buffer: Buffer, from: number, to: number): number[] => {
  const starts: number[] = [];
  for (let start = from; start < to;) {
    starts.push(start);
    const newline = buffer.indexOf(NEWLINE, start);
    start = newline === -1 ? to : newline + 1;
  }
  return starts;
};

/** Bytes of a window searched at once: below V8's limit for a string in its young generation. */
const WINDOW = 60 * 1024;

// The end (after its newline) of the line that holds buffer[at], or `to`.
const nextLineEnd = (buffer: Buffer, at: number, to: number): number => {
  const newline = at < to ? buffer.indexOf(NEWLINE, at) : -1;
  return newline === -1 || newline >= to ? to : newline + 1;
};

// Adds the start of each line of `text` (a window of whole lines from byte `offset`) that holds a match.
const findIn = (pattern: RegExp, text: string, offset: number, starts: number[]): void => {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    starts.push(offset + text.lastIndexOf('\n', match.index) + 1);
    // The rest of this line can add nothing: go on from the next line.
    const newline = text.indexOf('\n', match.index);
    if (newline === -1) break;
    pattern.lastIndex = newline + 1;
  }
};

// One regular expression over the region read as latin1 (one character per byte, so indices are byte offsets):
// a single pass finds every literal, where one Buffer#indexOf pass per literal cost 1.6–1.8 times as much with
// the diagnoser's 75 literals (measured on 64 MB logs). Literals are ASCII; a non-ASCII one is matched as UTF-8.
export const createLineSearch = (): LineSearch => {
  let pattern: RegExp | null = null;
  let all = false;
  let key: string | null = null;
  return {
    setLiterals(next) {
      // Asked before every chunk; the set rarely changes, so the expression is built only when it does.
      const nextKey = next.join('\n');
      if (nextKey === key) return;
      key = nextKey;
      const kept = [...new Set(next)].filter((literal) => !literal.includes('\n'));
      all = kept.includes('');
      const sources = kept
        .filter((literal) => literal !== '')
        .map((literal) => escapeRegExp(Buffer.from(literal, 'utf8').toString('latin1')));
      pattern = sources.length === 0 ? null : new RegExp(sources.join('|'), 'g');
    },
    lineStarts(buffer, from, to) {
      if (all) return everyLine(buffer, from, to);
      if (pattern === null) return [];
      const starts: number[] = [];
      // Searched in windows of whole lines of about WINDOW bytes: a string that small is made in V8's young
      // generation, where a 1 MiB one took a fresh allocation each time (10 times the cost, measured on 256 MB).
      for (let start = from; start < to;) {
        const last = start + WINDOW >= to ? -1 : buffer.lastIndexOf(NEWLINE, start + WINDOW - 1);
        const end = last >= start ? last + 1 : nextLineEnd(buffer, start + WINDOW, to);
        findIn(pattern, buffer.toString('latin1', start, end), start, starts);
        start = end;
      }
      return starts;
    },
    countNewlines(buffer, from, to) {
      let count = 0;
      for (let at = buffer.indexOf(NEWLINE, from); at !== -1 && at < to; at = buffer.indexOf(NEWLINE, at + 1))
        count++;
      return count;
    },
  };
};
