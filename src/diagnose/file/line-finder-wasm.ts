// The WebAssembly kernel of the line finder: a SIMD multi-literal search (the "Teddy" scheme: nibble tables give,
// for 16 positions at once, which buckets of literals can start there; candidates are then compared byte by byte)
// and a SIMD newline count. Hand-assembled: vigil has no WebAssembly toolchain, and this keeps the module's source
// readable next to its JavaScript side. The layout constants below are shared with line-finder.ts.

// Where the kernel finds its tables, literals, output and data: byte offsets into the imported memory.
export const LAYOUT = {
  /** Six 16-byte nibble tables: low and high nibble for fingerprint positions 0, 1, 2. */
  tables: 0,
  /** 16 bytes where the kernel spills a candidate vector. */
  scratch: 128,
  /** i32: where `find` stopped when its output was full. */
  resume: 160,
  /** Eight buckets of (first entry, end entry) u32 pairs. */
  buckets: 256,
  /** Literal entries: (offset into literal bytes, length) u32 pairs. */
  entries: 512,
  maxLiterals: 192,
  /** The literals' bytes. */
  literalBytes: 2048,
  maxLiteralBytes: 6144,
  /** Output: positions of matches, one per line, as u32. */
  out: 8192,
  outCapacity: 6144,
  /** The data buffers start here (page aligned). */
  data: 65536,
  /** Bytes readable past any data end (the kernel loads 16 bytes at position + 2). */
  padding: 64,
} as const;

const uleb = (value: number): number[] => {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    const byte = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? byte : byte | 0x80);
  } while (rest !== 0);
  return bytes;
};

const sleb = (value: number): number[] => {
  const bytes: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
};

const name = (text: string): number[] => [...uleb(text.length), ...Buffer.from(text, 'utf8')];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];

// Instructions (https://webassembly.github.io/spec/core/binary/instructions.html).
const I32 = 0x7f;
const V128 = 0x7b;
const EMPTY = 0x40;
const block = (...body: number[][]): number[] => [0x02, EMPTY, ...body.flat(), 0x0b];
const loop = (...body: number[][]): number[] => [0x03, EMPTY, ...body.flat(), 0x0b];
const br = (depth: number): number[] => [0x0c, ...uleb(depth)];
const brIf = (depth: number, ...condition: number[][]): number[] => [
  ...condition.flat(),
  0x0d,
  ...uleb(depth),
];
const get = (local: number): number[] => [0x20, ...uleb(local)];
const set = (local: number, ...value: number[][]): number[] => [...value.flat(), 0x21, ...uleb(local)];
const i32 = (value: number): number[] => [0x41, ...sleb(value)];
const load32 = (offset: number, ...address: number[][]): number[] => [
  ...address.flat(),
  0x28,
  2,
  ...uleb(offset),
];
const load8 = (offset: number, ...address: number[][]): number[] => [
  ...address.flat(),
  0x2d,
  0,
  ...uleb(offset),
];
const store32 = (offset: number, address: number[], value: number[]): number[] => [
  ...address,
  ...value,
  0x36,
  2,
  ...uleb(offset),
];
const binary =
  (opcode: number) =>
  (a: number[], b: number[]): number[] => [...a, ...b, opcode];
const add = binary(0x6a);
const sub = binary(0x6b);
const and = binary(0x71);
const or = binary(0x72);
const shl = binary(0x74);
const eq = binary(0x46);
const ne = binary(0x47);
const geU = binary(0x4f);
const gtU = binary(0x4b);
const eqz = (a: number[]): number[] => [...a, 0x45];
const ctz = (a: number[]): number[] => [...a, 0x68];
const popcnt = (a: number[]): number[] => [...a, 0x69];
const simd = (opcode: number): number[] => [0xfd, ...uleb(opcode)];
const vload = (offset: number, ...address: number[][]): number[] => [
  ...address.flat(),
  ...simd(0x00),
  0,
  ...uleb(offset),
];
const vstore = (address: number[], value: number[]): number[] => [...address, ...value, ...simd(0x0b), 0, 0];
const vconst = (bytes: number[]): number[] => [...simd(0x0c), ...bytes];
const splat8 = (a: number[]): number[] => [...a, ...simd(0x0f)];
const swizzle = (table: number[], indices: number[]): number[] => [...table, ...indices, ...simd(0x0e)];
const veq8 = (a: number[], b: number[]): number[] => [...a, ...b, ...simd(0x23)];
const vne8 = (a: number[], b: number[]): number[] => [...a, ...b, ...simd(0x24)];
const vand = (a: number[], b: number[]): number[] => [...a, ...b, ...simd(0x4e)];
const anyTrue = (a: number[]): number[] => [...a, ...simd(0x53)];
const bitmask8 = (a: number[]): number[] => [...a, ...simd(0x64)];
const shrU8 = (a: number[], bits: number): number[] => [...a, ...i32(bits), ...simd(0x6d)];

// find(start, end, capacity) → count: the positions of the first literal match of each line in data[start, end),
// written to LAYOUT.out; once `capacity` are written it stops after that line and stores where to resume.
const findBody = (): number[] => {
  const [start, end, capacity] = [0, 1, 2];
  const [i, n, bits, q, mask, e, eEnd, off, len, k, lane] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const [lo0, hi0, lo1, hi1, lo2, hi2, m, low, newline] = [14, 15, 16, 17, 18, 19, 20, 21, 22];
  const locals = vec([
    [...uleb(11), I32],
    [...uleb(9), V128],
  ]);
  // Which buckets can start at each of 16 positions: all three fingerprint bytes must agree.
  const fingerprint = (position: number[]): number[] => {
    const at = (shift: number, lo: number, hi: number): number[] => {
      const bytes = vload(shift, position);
      return vand(swizzle(get(lo), vand(bytes, get(low))), swizzle(get(hi), shrU8(bytes, 4)));
    };
    return vand(vand(at(0, lo0, hi0), at(1, lo1, hi1)), at(2, lo2, hi2));
  };
  // Labels, innermost first, are counted by hand: each comment names the structure a branch leaves or repeats.
  const compare = loop(
    brIf(4, geU(get(k), get(len))), // every byte matched → after $matched
    brIf(1, ne(load8(0, add(get(q), get(k))), load8(LAYOUT.literalBytes, add(get(off), get(k))))), // → $mismatch
    set(k, add(get(k), i32(1))),
    br(0),
  );
  const entry = loop(
    brIf(1, geU(get(e), get(eEnd))), // bucket exhausted → next bucket
    set(off, load32(LAYOUT.entries, shl(get(e), i32(3)))),
    set(len, load32(LAYOUT.entries + 4, shl(get(e), i32(3)))),
    set(e, add(get(e), i32(1))),
    block(brIf(0, gtU(add(get(q), get(len)), get(end))), set(k, i32(0)), compare),
    br(0),
  );
  const bucket = loop(
    brIf(2, eqz(get(mask))), // no literal matched here → next candidate
    set(e, ctz(get(mask))),
    set(mask, and(get(mask), sub(get(mask), i32(1)))),
    set(eEnd, load32(LAYOUT.buckets + 4, shl(get(e), i32(3)))),
    set(e, load32(LAYOUT.buckets, shl(get(e), i32(3)))),
    entry,
  );
  // After a match: find the line's newline 16 bytes at a time; the scan resumes after it.
  const skipLine = block(
    loop(
      brIf(1, geU(get(i), get(end))),
      set(lane, bitmask8(veq8(vload(0, get(i)), get(newline)))),
      block(brIf(0, eqz(get(lane))), set(i, add(get(i), ctz(get(lane)))), br(2)),
      set(i, add(get(i), i32(16))),
      br(0),
    ),
  );
  const candidates = loop(
    brIf(1, eqz(get(bits))), // → $next
    set(lane, ctz(get(bits))),
    set(q, add(get(i), get(lane))),
    brIf(3, geU(get(q), get(end))), // → $done
    set(mask, load8(LAYOUT.scratch, get(lane))),
    set(bits, and(get(bits), sub(get(bits), i32(1)))),
    block(bucket), // $matched: reached only by the compare loop's branch
    store32(LAYOUT.out, shl(get(n), i32(2)), get(q)),
    set(n, add(get(n), i32(1))),
    set(i, get(q)),
    skipLine,
    set(i, add(get(i), i32(1))),
    block(
      brIf(0, gtU(get(capacity), get(n))),
      store32(LAYOUT.resume, i32(0), get(i)),
      get(n),
      [0x0f], // return
    ),
    br(2), // → $scan at the new position
  );
  const scan = loop(
    brIf(1, geU(get(i), get(end))), // → $done
    set(m, fingerprint(get(i))),
    block(
      brIf(0, eqz(anyTrue(get(m)))),
      vstore(i32(LAYOUT.scratch), get(m)),
      set(bits, bitmask8(vne8(get(m), vconst(new Array<number>(16).fill(0))))),
      candidates,
    ),
    set(i, add(get(i), i32(16))),
    br(0),
  );
  const tables = [lo0, hi0, lo1, hi1, lo2, hi2].map((local, index) =>
    set(local, vload(LAYOUT.tables + 16 * index, i32(0))),
  );
  return [
    ...locals,
    ...tables.flat(),
    ...set(low, splat8(i32(0x0f))),
    ...set(newline, splat8(i32(0x0a))),
    ...set(i, get(start)),
    ...block(scan),
    ...store32(LAYOUT.resume, i32(0), get(end)),
    ...get(n),
    0x0b,
  ];
};

// count(start, end) → the newlines in data[start, end), 64 bytes at a time, then 16, then one.
const countBody = (): number[] => {
  const [start, end] = [0, 1];
  const [i, c, newline] = [2, 3, 4];
  const locals = vec([
    [...uleb(2), I32],
    [...uleb(1), V128],
  ]);
  const maskAt = (offset: number): number[] => bitmask8(veq8(vload(offset, get(i)), get(newline)));
  const step = (bytes: number, counted: number[]): number[] =>
    block(
      loop(
        brIf(1, gtU(add(get(i), i32(bytes)), get(end))),
        set(c, add(get(c), counted)),
        set(i, add(get(i), i32(bytes))),
        br(0),
      ),
    );
  return [
    ...locals,
    ...set(newline, splat8(i32(0x0a))),
    ...set(i, get(start)),
    ...step(
      64,
      add(popcnt(or(maskAt(0), shl(maskAt(16), i32(16)))), popcnt(or(maskAt(32), shl(maskAt(48), i32(16))))),
    ),
    ...step(16, popcnt(maskAt(0))),
    ...step(1, eq(load8(0, get(i)), i32(0x0a))),
    ...get(c),
    0x0b,
  ];
};

// The module's bytes: imports `env.memory`, exports `find` and `count`.
export const lineFinderModuleBytes = (): Uint8Array => {
  const types = vec([
    [0x60, ...vec([[I32], [I32], [I32]]), ...vec([[I32]])],
    [0x60, ...vec([[I32], [I32]]), ...vec([[I32]])],
  ]);
  const imports = vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]]);
  const functions = vec([uleb(0), uleb(1)]);
  const exports = vec([
    [...name('find'), 0x00, ...uleb(0)],
    [...name('count'), 0x00, ...uleb(1)],
  ]);
  const code = vec([findBody(), countBody()].map((body) => [...uleb(body.length), ...body]));
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, types),
    ...section(2, imports),
    ...section(3, functions),
    ...section(7, exports),
    ...section(10, code),
  ]);
};
