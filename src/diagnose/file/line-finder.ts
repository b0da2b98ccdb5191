// Finds the lines of a buffer that contain any of a set of literals, and counts newlines: the inner loop of
// `vigil diagnose` on a large file. The lines that hold a literal are few, and only they become strings.
// Hand-written: no library searches a Buffer for many literals at once.

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

// The literals as one byte automaton (Aho–Corasick with every transition worked out in advance): a row per state, a
// column per byte class (0: the bytes no literal holds). Each entry is the next state's row offset, with bit 0 set
// where that state ends a literal.
interface Automaton {
  classOf: Uint8Array;
  table: Int32Array;
}

const buildAutomaton = (literals: readonly Buffer[]): Automaton => {
  const classOf = new Uint8Array(256);
  let classes = 1;
  for (const literal of literals)
    for (const byte of literal) if (classOf[byte] === 0) classOf[byte] = classes++;
  // A power of two of at least 2 columns, so that a row offset leaves bit 0 free for the flag.
  const width = 2 ** Math.ceil(Math.log2(Math.max(2, classes)));
  const trie = new Int32Array((1 + literals.reduce((sum, literal) => sum + literal.length, 0)) * width).fill(
    -1,
  );
  const ends: number[] = [0];
  for (const literal of literals) {
    let row = 0;
    for (const byte of literal) {
      const at = row + (classOf[byte] as number);
      if (trie[at] === -1) {
        trie[at] = ends.length * width;
        ends.push(0);
      }
      row = trie[at] as number;
    }
    ends[row / width] = 1;
  }
  // Breadth first, so that a state's fallback (shallower) has its row complete before the state needs it.
  const table = new Int32Array(ends.length * width);
  const fallback = new Int32Array(ends.length);
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const row = queue[head] as number;
    const state = row / width;
    for (let column = 0; column < classes; column++) {
      const child = trie[row + column] as number;
      const instead = state === 0 ? 0 : (table[(fallback[state] as number) + column] as number);
      if (child === -1) {
        table[row + column] = instead;
        continue;
      }
      fallback[child / width] = instead & ~1;
      ends[child / width] = (ends[child / width] as number) | (instead & 1);
      table[row + column] = child | (ends[child / width] as number);
      queue.push(child);
    }
  }
  return { classOf, table };
};

// The automata of the last few literal sets. Building one takes about 5 ms (1,100 states), more than reading a small
// log; each file's diagnosis starts from the same set, so a process diagnosing many logs builds it once.
const recentAutomata = new Map<string, Automaton | null>();
const RECENT_AUTOMATA = 8;

const automatonFor = (key: string, literals: readonly Buffer[]): Automaton | null => {
  let automaton = recentAutomata.get(key);
  if (automaton === undefined) {
    automaton = literals.length === 0 ? null : buildAutomaton(literals);
    if (recentAutomata.size >= RECENT_AUTOMATA)
      recentAutomata.delete(recentAutomata.keys().next().value as string);
  } else recentAutomata.delete(key);
  recentAutomata.set(key, automaton);
  return automaton;
};

// One pass over the bytes finds every literal. Hand-written: V8's regular expressions try each of the diagnoser's
// ~140 literals at every position (5.2 ms per MB), and no package on npm searches a Buffer for many literals at
// once; this automaton reads each byte once (2.2 ms per MB, measured on 64 MB of heartbeat lines). Literals are
// matched as UTF-8 bytes.
export const createLineSearch = (): LineSearch => {
  let automaton: Automaton | null = null;
  let all = false;
  let key: string | null = null;
  return {
    setLiterals(next) {
      // Asked before every chunk; the set rarely changes, so the automaton is built only when it does.
      const nextKey = next.join('\n');
      if (nextKey === key) return;
      key = nextKey;
      const kept = [...new Set(next)].filter((literal) => !literal.includes('\n'));
      all = kept.includes('');
      const bytes = kept.filter((literal) => literal !== '').map((literal) => Buffer.from(literal, 'utf8'));
      automaton = automatonFor(nextKey, bytes);
    },
    lineStarts(buffer, from, to) {
      if (all) return everyLine(buffer, from, to);
      if (automaton === null) return [];
      const { classOf, table } = automaton;
      const starts: number[] = [];
      // A newline is in no literal, so it leads back to the first state: no match spans two lines.
      let entry = 0;
      for (let at = from; at < to; at++) {
        entry = table[(entry & ~1) + (classOf[buffer[at] as number] as number)] as number;
        if ((entry & 1) === 0) continue;
        starts.push(Math.max(from, buffer.lastIndexOf(NEWLINE, at) + 1));
        // The rest of this line can add nothing: go on from the next line.
        const newline = buffer.indexOf(NEWLINE, at);
        if (newline === -1 || newline >= to) break;
        at = newline;
        entry = 0;
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
