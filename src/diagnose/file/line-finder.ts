// Finds the lines of a buffer that contain any of a set of literals, and counts newlines: the inner loop of
// `vigil diagnose` on a large file. Buffer#indexOf runs once per literal (memchr speed, one pass each); the lines
// that hold a literal are few, and only they become strings.
// Hand-written: no library searches a Buffer for many literals at once.

// Searches reads into its own buffers.
export interface LineFinder {
  /** Two buffers to read file chunks into (one is searched while the other fills); search only these. */
  readonly buffers: readonly [Buffer, Buffer];
  /** Sets the literals lines are searched for; literals holding a newline never match, an empty one matches all. */
  setLiterals(literals: readonly string[]): void;
  /** The start of each line of buffer[from, to) that contains a literal, ascending; `from` starts a line. */
  lineStarts(buffer: Buffer, from: number, to: number): number[];
  /** The newlines in buffer[from, to). */
  countNewlines(buffer: Buffer, from: number, to: number): number;
}

export interface LineFinderOptions {
  /** Bytes in each of the two buffers. */
  bufferBytes: number;
}

const NEWLINE = 0x0a;
// Creates a finder with its two buffers.
export const createLineFinder = (options: LineFinderOptions): LineFinder =>
  createIndexOfFinder(options.bufferBytes);

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

const usable = (literals: readonly string[]): { bytes: Buffer[]; all: boolean } => {
  const bytes = [...new Set(literals)]
    .filter((literal) => !literal.includes('\n'))
    .map((literal) => Buffer.from(literal, 'utf8'));
  return { bytes: bytes.filter((literal) => literal.length > 0), all: bytes.some((b) => b.length === 0) };
};

// One Buffer#indexOf pass per literal, then the line starts sorted.
const createIndexOfFinder = (bufferBytes: number): LineFinder => {
  let literals: Buffer[] = [];
  let all = false;
  return {
    buffers: [Buffer.alloc(bufferBytes), Buffer.alloc(bufferBytes)],
    setLiterals(next) {
      ({ bytes: literals, all } = usable(next));
    },
    lineStarts(buffer, from, to) {
      if (all) return everyLine(buffer, from, to);
      const region = buffer.subarray(0, to);
      const starts: number[] = [];
      for (const literal of literals) {
        for (let at = region.indexOf(literal, from); at !== -1;) {
          starts.push(Math.max(from, region.lastIndexOf(NEWLINE, at) + 1));
          const newline = region.indexOf(NEWLINE, at);
          if (newline === -1) break;
          at = region.indexOf(literal, newline + 1);
        }
      }
      starts.sort((a, b) => a - b);
      return starts.filter((start, i) => start !== starts[i - 1]);
    },
    countNewlines(buffer, from, to) {
      let count = 0;
      for (let at = buffer.indexOf(NEWLINE, from); at !== -1 && at < to; at = buffer.indexOf(NEWLINE, at + 1))
        count++;
      return count;
    },
  };
};
