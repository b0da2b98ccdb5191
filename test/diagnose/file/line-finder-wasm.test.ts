import { describe, expect, it } from 'vitest';
import { LAYOUT, lineFinderModuleBytes } from '../../../src/diagnose/file/line-finder-wasm.ts';

// The WebAssembly API as the project's TypeScript libraries leave it undeclared.
const wasm = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly;

describe('lineFinderModuleBytes', () => {
  it('is a valid WebAssembly module', () => {
    const bytes = lineFinderModuleBytes();
    expect([...bytes.subarray(0, 8)]).toEqual([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect(wasm.validate(bytes)).toBe(true);
  });

  it('lays out its regions without overlap, data page aligned', () => {
    const regions = [
      [LAYOUT.tables, LAYOUT.tables + 96],
      [LAYOUT.scratch, LAYOUT.scratch + 16],
      [LAYOUT.resume, LAYOUT.resume + 4],
      [LAYOUT.buckets, LAYOUT.buckets + 64],
      [LAYOUT.entries, LAYOUT.entries + 8 * LAYOUT.maxLiterals],
      [LAYOUT.literalBytes, LAYOUT.literalBytes + LAYOUT.maxLiteralBytes],
      [LAYOUT.out, LAYOUT.out + 4 * LAYOUT.outCapacity],
    ] as const;
    for (let i = 1; i < regions.length; i++)
      expect(regions[i]![0]).toBeGreaterThanOrEqual(regions[i - 1]![1]);
    expect(LAYOUT.data).toBeGreaterThanOrEqual(regions.at(-1)![1]);
    expect(LAYOUT.data % 65536).toBe(0);
  });
});
