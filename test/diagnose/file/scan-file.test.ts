import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanLogFile, type ScanLogFileOptions } from '../../../src/diagnose/file/scan-file.ts';
import type { RawLine } from '../../../src/logs/types.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-scan-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const scan = async (
  content: string | Buffer,
  options: Partial<ScanLogFileOptions> = {},
): Promise<RawLine[]> => {
  const path = join(dir, 'server.log');
  writeFileSync(path, content);
  const lines: RawLine[] = [];
  for await (const batch of scanLogFile({ path, needles: () => ['ERROR'], tailLines: 2, ...options }))
    lines.push(...batch);
  return lines;
};

const numberedFile = (count: number, mark: (i: number) => boolean): string =>
  Array.from(
    { length: count },
    (_, i) => `line ${i + 1}${mark(i + 1) ? ' ERROR here' : ' fine'} ${'x'.repeat(i % 37)}`,
  ).join('\n');

describe('scanLogFile', () => {
  it('passes matching lines and the last lines, with file line numbers, whatever the chunk size', async () => {
    const content = `${numberedFile(500, (i) => i % 97 === 0)}\n`;
    const expected = [97, 194, 291, 388, 485, 499, 500];
    for (const chunkBytes of [7, 64, 1000, 1 << 20]) {
      const lines = await scan(content, { chunkBytes });
      expect(lines.map((l) => l.line)).toEqual(expected);
      for (const line of lines) expect(line.text.startsWith(`line ${line.line} `)).toBe(true);
    }
  });

  it('reads a last line without a newline, CRLF lines and UTF-8 text', async () => {
    const lines = await scan('a\r\nERROR é█ x\r\nb\nc', { chunkBytes: 5 });
    expect(lines).toEqual([
      { line: 2, text: 'ERROR é█ x\r' },
      { line: 3, text: 'b' },
      { line: 4, text: 'c' },
    ]);
  });

  it('keeps the head of an over-long line and the numbering after it', async () => {
    const long = `ERROR ${'y'.repeat(300_000)}`;
    const lines = await scan(`first\n${long}\nlast ERROR\nend\n`, { chunkBytes: 4096, tailLines: 1 });
    expect(lines.map((l) => l.line)).toEqual([2, 3, 4]);
    expect(lines[0]?.text.startsWith('ERROR yyy')).toBe(true);
    expect(lines[0]?.text.length).toBeLessThanOrEqual(64 * 1024);
    expect(lines[1]?.text).toBe('last ERROR');
  });

  it('keeps the head of an over-long line that crosses a chunk boundary', async () => {
    const before = `${'a'.repeat(99)}\n`.repeat(60);
    const long = `ERROR ${'y'.repeat(200_000)}`;
    const content = `${before}${long}\nERROR end\n${'b\n'.repeat(100_000)}`;
    for (const chunkBytes of [4096, 100_000, 1 << 20]) {
      const lines = await scan(content, { chunkBytes, tailLines: 1 });
      expect(lines.map((l) => l.line)).toEqual([61, 62, 100_062]);
      expect(lines[0]?.text.startsWith('ERROR yyy')).toBe(true);
      // Cut to its head only when it does not fit in one chunk.
      expect(lines[0]?.text.length).toBe(chunkBytes < long.length ? 64 * 1024 : long.length);
      expect(lines[1]?.text).toBe('ERROR end');
    }
  });

  it('passes the same lines whatever the chunk size, context lines included', async () => {
    const content = `${numberedFile(3000, (i) => i % 101 === 0 || i === 1 || i === 2999)}\n`;
    const whole = await scan(content, { chunkBytes: 1 << 20, tailLines: 5, contextLines: 3 });
    expect(whole.map((l) => l.line).slice(0, 9)).toEqual([1, 98, 99, 100, 101, 199, 200, 201, 202]);
    expect(whole.map((l) => l.line).slice(-5)).toEqual([2996, 2997, 2998, 2999, 3000]);
    for (const chunkBytes of [333, 4096]) {
      const lines = await scan(content, { chunkBytes, tailLines: 5, contextLines: 3 });
      // Context lines come from the same chunk: the first lines of a chunk have fewer above them.
      const matching = (list: typeof whole): number[] =>
        list.filter((l) => l.line % 101 === 0).map((l) => l.line);
      expect(matching(lines)).toEqual(matching(whole));
      expect(lines.slice(-5)).toEqual(whole.slice(-5));
    }
  });

  it('asks for the needles again before each chunk', async () => {
    let calls = 0;
    const content = `${numberedFile(2000, (i) => i === 10 || i === 1500)}\n`;
    const lines = await scan(content, {
      chunkBytes: 4096,
      tailLines: 0,
      needles: () => (calls++ === 0 ? ['ERROR'] : []),
    });
    expect(calls).toBeGreaterThan(2);
    expect(lines.map((l) => l.line)).toEqual([10]);
  });

  it('passes the same lines when worker threads search the chunks', async () => {
    const long = `ERROR ${'y'.repeat(200_000)}`;
    const content = `${numberedFile(3000, (i) => i % 41 === 0)}\n${long}\n${numberedFile(900, (i) => i % 7 === 0)}`;
    // From the file's start, and from a later line (a last start found above the end).
    const lineThousand = content.indexOf('\nline 1000 ') + 1;
    const starts = [undefined, async () => Promise.resolve({ offset: lineThousand, line: 1000 })];
    for (const chunkBytes of [4096, 100_000])
      for (const from of starts) {
        const options = {
          chunkBytes,
          contextLines: 2,
          tailLines: 5,
          ...(from === undefined ? {} : { from }),
        };
        const alone = await scan(content, options);
        const parallel = await scan(content, { ...options, parallelFromBytes: 0 });
        expect(alone.length).toBeGreaterThan(100);
        expect(parallel).toEqual(alone);
        if (from !== undefined) expect(parallel[0]?.line).toBeGreaterThanOrEqual(1000);
      }
  });

  it('searches a chunk again where the literals grew after a worker searched it', async () => {
    let calls = 0;
    // OTHER lines in the second and third chunks, which workers search before the first is passed on.
    const content = numberedFile(3000, (i) => i === 10).replace(/^line (120|200) fine/gm, 'line $1 OTHER');
    const lines = await scan(content, {
      chunkBytes: 4096,
      tailLines: 0,
      parallelFromBytes: 0,
      // Workers get the first answer for the chunks they search ahead; later chunks are wanted with more.
      needles: () => (calls++ < 4 ? ['ERROR'] : ['ERROR', 'OTHER']),
    });
    expect(lines.map((l) => l.line)).toEqual([10, 120, 200]);
  });

  it('lets its read ahead land when the consumer stops early', async () => {
    const path = join(dir, 'server.log');
    writeFileSync(path, `${numberedFile(50_000, () => true)}\n`);
    let batches = 0;
    for await (const batch of scanLogFile({
      path,
      needles: () => ['ERROR'],
      tailLines: 0,
      chunkBytes: 4096,
    })) {
      expect(batch[0]?.text).toContain('ERROR');
      batches++;
      if (batches === 2) break;
    }
    expect(batches).toBe(2);
  });

  it('handles an empty file', async () => {
    expect(await scan('')).toEqual([]);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      scan(
        numberedFile(100, () => true),
        { signal: controller.signal },
      ),
    ).rejects.toThrow();
  });
});
