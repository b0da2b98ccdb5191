// Finds the lines of a buffer that contain any of a set of literals, and counts newlines: the inner loop of
// `vigil diagnose` on a large file. With WebAssembly SIMD (Node 20 on x64 and arm64) one pass over the bytes finds
// every literal at once; without it, Buffer#indexOf runs once per literal (memchr speed, but one pass each).
// Hand-written: no library searches a Buffer for many literals at once.
import { LAYOUT, lineFinderModuleBytes } from './line-finder-wasm.ts';

// Searches reads into its own buffers, which the SIMD kernel sees without a copy.
export interface LineFinder {
  /** Two buffers to read file chunks into (one is searched while the other fills); search only these. */
  readonly buffers: readonly [Buffer, Buffer];
  /** True when the SIMD kernel searches (false: the Buffer#indexOf fallback). */
  readonly simd: boolean;
  /** Sets the literals lines are searched for; literals holding a newline never match, an empty one matches all. */
  setLiterals(literals: readonly string[]): void;
  /** The start of each line of buffer[from, to) that contains a literal, ascending; `from` starts a line. */
  lineStarts(buffer: Buffer, from: number, to: number): number[];
  /** The newlines in buffer[from, to). */
  countNewlines(buffer: Buffer, from: number, to: number): number;
}

// How big the buffers are, and whether SIMD may be used.
export interface LineFinderOptions {
  /** Bytes in each of the two buffers. */
  bufferBytes: number;
  /** false forces the Buffer#indexOf search (tests compare the two). */
  simd?: boolean;
}

const NEWLINE = 0x0a;
const BUCKETS = 8;

// The parts of the WebAssembly API used here (the project's TypeScript libraries do not declare it).
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
}

interface Kernel {
  find: (start: number, end: number, capacity: number) => number;
  count: (start: number, end: number) => number;
}

let compiled: object | null | undefined;

// Compiles the kernel once per process; null when this runtime has no WebAssembly SIMD (or none at all, as with
// --jitless).
const kernelModule = (api: WasmApi | undefined): object | null => {
  if (compiled !== undefined) return compiled;
  const bytes = lineFinderModuleBytes();
  try {
    compiled = api?.validate(bytes) === true ? new api.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
};

// Creates a finder with its two buffers; SIMD when the runtime supports it.
export const createLineFinder = (options: LineFinderOptions): LineFinder => {
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  const module = options.simd === false ? null : kernelModule(api);
  if (module !== null && api !== undefined) {
    try {
      return createSimdFinder(api, module, options.bufferBytes);
    } catch {
      // Out of memory for the kernel's buffers: the fallback needs no WebAssembly memory.
    }
  }
  return createIndexOfFinder(options.bufferBytes);
};

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

// The fallback: one Buffer#indexOf pass per literal, then the line starts sorted.
const createIndexOfFinder = (bufferBytes: number): LineFinder => {
  let literals: Buffer[] = [];
  let all = false;
  return {
    buffers: [Buffer.alloc(bufferBytes), Buffer.alloc(bufferBytes)],
    simd: false,
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

// The SIMD finder: the kernel's tables, literals and both buffers live in one WebAssembly memory.
const createSimdFinder = (api: WasmApi, module: object, bufferBytes: number): LineFinder => {
  const stride = Math.ceil((bufferBytes + LAYOUT.padding) / 64) * 64;
  const pages = Math.ceil((LAYOUT.data + 2 * stride) / 65536);
  const memory = new api.Memory({ initial: pages, maximum: pages });
  const kernel = new api.Instance(module, { env: { memory } }).exports as unknown as Kernel;
  const bytes = new Uint8Array(memory.buffer);
  // WebAssembly memory is little-endian whatever the host is.
  const view = new DataView(memory.buffer);
  const setWord = (at: number, value: number): void => {
    view.setUint32(at, value, true);
  };
  const word = (at: number): number => view.getUint32(at, true);
  const buffers: [Buffer, Buffer] = [
    Buffer.from(memory.buffer, LAYOUT.data, bufferBytes),
    Buffer.from(memory.buffer, LAYOUT.data + stride, bufferBytes),
  ];
  let key = '';
  let all = false;
  let fallback: LineFinder | null = null;

  // Literals into buckets by their first bytes (neighbours share nibbles, so the tables stay selective).
  const load = (literals: Buffer[]): void => {
    const sorted = [...literals].sort((a, b) => Buffer.compare(a, b));
    bytes.fill(0, LAYOUT.tables, LAYOUT.tables + 96);
    let offset = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const first = Math.floor((bucket * sorted.length) / BUCKETS);
      const end = Math.floor(((bucket + 1) * sorted.length) / BUCKETS);
      setWord(LAYOUT.buckets + 8 * bucket, first);
      setWord(LAYOUT.buckets + 8 * bucket + 4, end);
      for (let entry = first; entry < end; entry++) {
        const literal = sorted[entry] ?? Buffer.alloc(0);
        setWord(LAYOUT.entries + 8 * entry, offset);
        setWord(LAYOUT.entries + 8 * entry + 4, literal.length);
        bytes.set(literal, LAYOUT.literalBytes + offset);
        offset += literal.length;
        for (let position = 0; position < 3; position++) {
          const lo = LAYOUT.tables + 32 * position;
          const hi = lo + 16;
          const byte = literal[position];
          for (let nibble = 0; nibble < 16; nibble++) {
            // Past a short literal's end any byte may follow.
            if (byte === undefined || (byte & 15) === nibble)
              bytes[lo + nibble] = (bytes[lo + nibble] ?? 0) | (1 << bucket);
            if (byte === undefined || byte >> 4 === nibble)
              bytes[hi + nibble] = (bytes[hi + nibble] ?? 0) | (1 << bucket);
          }
        }
      }
    }
  };

  return {
    buffers,
    simd: true,
    setLiterals(next) {
      const nextKey = next.join('\n');
      if (nextKey === key) return;
      key = nextKey;
      const { bytes: literals, all: every } = usable(next);
      all = every;
      const size = literals.reduce((sum, literal) => sum + literal.length, 0);
      fallback = null;
      if (literals.length > LAYOUT.maxLiterals || size > LAYOUT.maxLiteralBytes) {
        fallback = createIndexOfFinder(0);
        fallback.setLiterals(next);
      } else load(literals);
    },
    lineStarts(buffer, from, to) {
      if (all) return everyLine(buffer, from, to);
      if (fallback !== null) return fallback.lineStarts(buffer, from, to);
      const base = buffer.byteOffset;
      const starts: number[] = [];
      let at = base + from;
      for (;;) {
        const found = kernel.find(at, base + to, LAYOUT.outCapacity);
        for (let i = 0; i < found; i++) {
          const position = word(LAYOUT.out + 4 * i) - base;
          starts.push(Math.max(from, buffer.lastIndexOf(NEWLINE, position) + 1));
        }
        if (found < LAYOUT.outCapacity) return starts;
        at = word(LAYOUT.resume);
      }
    },
    countNewlines(buffer, from, to) {
      return to <= from ? 0 : kernel.count(buffer.byteOffset + from, buffer.byteOffset + to);
    },
  };
};
