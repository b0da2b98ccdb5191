// Many literals found in one pass: the automaton behind a file's line search (over bytes) and the diagnoser's line
// checks (over a string's UTF-16 code units). Hand-written: V8's regular expressions try each of the diagnoser's
// literals at every position of a line, and no package on npm searches a Buffer or a string for many literals at
// once with the matches' identities; the automaton reads each symbol once (on the corpus's 356,000 lines, 0.1 s
// against 0.3 s for one alternation of the same literals).

// Aho–Corasick as a table: a row per state, a column per symbol class (0: the symbols no literal holds). Each entry is
// the next state's row offset, with bit 0 set where that state ends a literal, or 0 until the transition is first
// taken (row 0 is no state): working out all of them in advance cost about 6 ms per literal set, in every process
// that diagnoses, and a table of zeros costs nothing to allocate.
export interface Automaton {
  classOf: Uint8Array | Uint16Array;
  table: Int32Array;
  /** The first state's row offset: the entry to start from. */
  start: number;
  /** The entry at table[at] (0 there), worked out and stored. */
  next: (at: number) => number;
  /** Works out every entry, for a loop that reads the table with no check (a large file's search). */
  complete: () => void;
  /** Columns per row: a state's row offset divided by it is the state's number. */
  width: number;
  /** By state number: the indices (into the literals built from) of every literal that ends there. */
  ends: readonly (readonly number[])[];
}

const NONE: readonly number[] = [];

/** Builds the automaton of literals given as symbol codes, each below `symbols` (256 for bytes, 65,536 for UTF-16). */
export const buildAutomaton = (literals: readonly ArrayLike<number>[], symbols: 256 | 65_536): Automaton => {
  const classOf = symbols === 256 ? new Uint8Array(256) : new Uint16Array(65_536);
  let classes = 1;
  for (const literal of literals)
    for (let i = 0; i < literal.length; i++) {
      const symbol = literal[i] as number;
      if (classOf[symbol] === 0) classOf[symbol] = classes++;
    }
  // An even number of columns, so that a row offset leaves bit 0 free for the flag.
  const width = classes + (classes % 2);
  const start = width;
  // The trie: child row offsets by row offset plus column, in an open-addressing hash table (a dense table's pages,
  // each first touched by one write, cost more than the build); state n has row offset (n + 1) * width. All of it in
  // typed arrays, off the JavaScript heap that a diagnosis keeps flat.
  const symbolCount = literals.reduce((sum, literal) => sum + literal.length, 0);
  const slots = 2 ** Math.ceil(Math.log2(4 + 2 * symbolCount));
  const keys = new Int32Array(slots);
  const values = new Int32Array(slots);
  const slotOf = (key: number): number => {
    let slot = Math.imul(key, 0x9e3779b1) & (slots - 1);
    while (keys[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & (slots - 1);
    return slot;
  };
  // The child row at a row offset plus column, 0 for none (keys are never 0: the first state's row is `width`).
  const childAt = (key: number): number => values[slotOf(key)] as number;
  // By state: its parent's row, the column that leads to it, its depth; and the literals that end there.
  const parentOf = new Int32Array(symbolCount + 1);
  const columnOf = new Int32Array(symbolCount + 1);
  const depthOf = new Int32Array(symbolCount + 1);
  const ends: (readonly number[])[] = [NONE];
  for (let index = 0; index < literals.length; index++) {
    const literal = literals[index] ?? [];
    let row = start;
    for (let i = 0; i < literal.length; i++) {
      const column = classOf[literal[i] as number] as number;
      let child = childAt(row + column);
      if (child === 0) {
        const state = ends.length;
        child = (state + 1) * width;
        const slot = slotOf(row + column);
        keys[slot] = row + column;
        values[slot] = child;
        [parentOf[state], columnOf[state], depthOf[state]] = [row, column, i + 1];
        ends.push(NONE);
      }
      row = child;
    }
    ends[row / width - 1] = [...(ends[row / width - 1] ?? NONE), index];
  }
  // Each state's fallback (the longest proper suffix that is a state) and the literals ending there, shallow states
  // first: a state's fallback is shallower, so its own fallback and literals are known by then.
  const states = ends.length;
  const fallback = new Int32Array(states);
  const follow = (row: number, column: number): number => {
    for (let at = row; ; at = fallback[at / width - 1] as number) {
      const child = childAt(at + column);
      if (child !== 0) return child;
      if (at === start) return start;
    }
  };
  // States by depth (a counting sort: depths are literal lengths): atDepth[d] is where depth d's states go.
  const atDepth = new Int32Array(2 + Math.max(0, ...literals.map((literal) => literal.length)));
  for (let state = 1; state < states; state++) {
    const slot = (depthOf[state] as number) + 1;
    atDepth[slot] = (atDepth[slot] as number) + 1;
  }
  for (let depth = 1; depth < atDepth.length; depth++)
    atDepth[depth] = (atDepth[depth] as number) + (atDepth[depth - 1] as number);
  const byDepth = new Int32Array(states - 1);
  for (let state = 1; state < states; state++) {
    const depth = depthOf[state] as number;
    const at = atDepth[depth] as number;
    byDepth[at] = state;
    atDepth[depth] = at + 1;
  }
  for (const state of byDepth) {
    const parent = parentOf[state] as number;
    const back =
      parent === start ? start : follow(fallback[parent / width - 1] as number, columnOf[state] as number);
    fallback[state] = back;
    const inherited = ends[back / width - 1] ?? NONE;
    if (inherited.length > 0) ends[state] = [...(ends[state] ?? NONE), ...inherited];
  }
  const table = new Int32Array((ends.length + 1) * width);
  const next = (at: number): number => {
    const column = at % width;
    const row = at - column;
    const child = childAt(at);
    const target =
      child !== 0 ? child : row === start ? start : follow(fallback[row / width - 1] as number, column);
    const entry = target | ((ends[target / width - 1] ?? NONE).length > 0 ? 1 : 0);
    table[at] = entry;
    return entry;
  };
  const complete = (): void => {
    for (let at = start; at < table.length; at++) if (table[at] === 0) next(at);
  };
  return { classOf, table, start, next, complete, width, ends };
};

/** Finds literals in strings. */
export interface LiteralMatcher {
  /** Whether the text contains any of the literals. */
  test(text: string): boolean;
  /** Calls `found` for each literal occurrence, in the order they end: the literal's index, and where it ends. */
  forEach(text: string, found: (index: number, end: number) => void): void;
}

const codeUnits = (literal: string): number[] =>
  Array.from({ length: literal.length }, (_, i) => literal.charCodeAt(i));

/** A matcher of the literals (none empty), compared code unit by code unit; built when first used. */
export const createLiteralMatcher = (literals: readonly string[]): LiteralMatcher => {
  let automaton: Automaton | null = null;
  const built = (): Automaton => (automaton ??= buildAutomaton(literals.map(codeUnits), 65_536));
  return {
    test(text) {
      const { classOf, table, start, next } = built();
      let entry = start;
      for (let at = 0; at < text.length; at++) {
        const cell = (entry & ~1) + (classOf[text.charCodeAt(at)] as number);
        entry = table[cell] as number;
        if (entry === 0) entry = next(cell);
        if ((entry & 1) !== 0) return true;
      }
      return false;
    },
    forEach(text, found) {
      const { classOf, table, start, next, width, ends } = built();
      let entry = start;
      for (let at = 0; at < text.length; at++) {
        const cell = (entry & ~1) + (classOf[text.charCodeAt(at)] as number);
        entry = table[cell] as number;
        if (entry === 0) entry = next(cell);
        if ((entry & 1) !== 0)
          for (const index of ends[(entry & ~1) / width - 1] ?? NONE) found(index, at + 1);
      }
    },
  };
};
