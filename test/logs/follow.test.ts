import { appendFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_LINE,
  createLogFollower,
  followLog,
  type FollowedLine,
  type LogFollower,
  type LogNote,
} from '../../src/logs/follow.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

const followers: LogFollower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map((f) => f.close()));
  await removeTempDirs();
});

// Reads batches from a follower in the background; `until` waits for lines that satisfy a condition.
const reader = (follower: LogFollower) => {
  followers.push(follower);
  const lines: FollowedLine[] = [];
  const iterator = follower[Symbol.asyncIterator]();
  const pump = async (): Promise<void> => {
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      for (const line of next.value) lines.push(line);
    }
  };
  const done = pump();
  const until = async (
    check: (lines: FollowedLine[]) => boolean,
    withinMs = 10_000,
  ): Promise<FollowedLine[]> => {
    const deadline = Date.now() + withinMs;
    while (!check(lines) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!check(lines)) throw new Error(`lines never matched: ${JSON.stringify(lines)}`);
    return lines;
  };
  return { lines, until, done };
};

const complete = (lines: readonly FollowedLine[]): { line: number; text: string }[] =>
  lines.filter((l) => l.partial !== true).map(({ line, text }) => ({ line, text }));

describe('followLog', () => {
  it('starts at the offset and numbers lines as the file does', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    const old = 'old 1\nold 2\nThe server is fired up and ready to roll!\n';
    await writeFile(path, old);
    const r = reader(createLogFollower({ path, fromOffset: Buffer.byteLength(old) }));
    await appendFile(path, 'new 4\nnew 5\n');
    const lines = await r.until((l) => l.length >= 2);
    expect(complete(lines)).toEqual([
      { line: 4, text: 'new 4' },
      { line: 5, text: 'new 5' },
    ]);
  });

  it('waits for a file that does not exist yet, with a note', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'later.log');
    const notes: LogNote[] = [];
    const r = reader(createLogFollower({ path, onNote: (n) => notes.push(n), pollMs: 100 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writeFile(path, 'first\n');
    await r.until((l) => l.length >= 1);
    expect(complete(r.lines)).toEqual([{ line: 1, text: 'first' }]);
    expect(notes.map((n) => n.code)).toEqual(['missing', 'appeared']);
  });

  it('waits for a directory that does not exist yet', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'sub', 'server.log');
    const r = reader(createLogFollower({ path, pollMs: 50 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'sub'));
    await writeFile(path, 'hello\n');
    await r.until((l) => l.length >= 1);
    expect(complete(r.lines)).toEqual([{ line: 1, text: 'hello' }]);
  });

  it('starts again from the top after a truncation, with a note', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, '');
    const notes: LogNote[] = [];
    const r = reader(createLogFollower({ path, onNote: (n) => notes.push(n), pollMs: 50 }));
    await appendFile(path, 'a long first line before truncation\nsecond\n');
    await r.until((l) => l.length >= 2);
    await truncate(path, 0);
    await appendFile(path, 'x\n');
    await r.until((l) => l.some((line) => line.text === 'x'));
    expect(complete(r.lines).at(-1)).toEqual({ line: 1, text: 'x' });
    expect(notes.map((n) => n.code)).toContain('truncated');
  });

  it('follows a rotated log to the new file after reading the rest of the old one', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, '');
    const notes: LogNote[] = [];
    const r = reader(createLogFollower({ path, onNote: (n) => notes.push(n), pollMs: 50 }));
    await appendFile(path, 'one\n');
    await r.until((l) => l.length >= 1);
    await appendFile(path, 'two\n');
    await rename(path, `${path}.1`);
    await writeFile(path, 'fresh\n');
    await r.until((l) => l.some((line) => line.text === 'fresh'));
    expect(complete(r.lines)).toEqual([
      { line: 1, text: 'one' },
      { line: 2, text: 'two' },
      { line: 1, text: 'fresh' },
    ]);
    expect(notes.map((n) => n.code)).toContain('rotated');
  });

  it('hands over carriage-return redraws of an unfinished line as partial lines, then the finished line', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, '');
    const r = reader(createLogFollower({ path, pollMs: 50 }));
    await appendFile(path, 'Loading:  1/4\rLoading:  2/4\r');
    await r.until((l) => l.some((line) => line.partial === true));
    const partial = r.lines.find((l) => l.partial === true);
    expect(partial?.line).toBe(1);
    expect(partial?.text.split('\r').at(-1)).toBe('Loading:  2/4');
    await appendFile(path, 'Loading:  4/4\n');
    await r.until((l) => l.some((line) => line.partial !== true));
    expect(complete(r.lines)).toEqual([{ line: 1, text: 'Loading:  1/4\rLoading:  2/4\rLoading:  4/4' }]);
  });

  it('strips the \\r of CRLF line ends and keeps multi-byte characters whole across reads', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    const big = '█'.repeat(400_000);
    await writeFile(path, `windows\r\n${big}\n`);
    const r = reader(createLogFollower({ path }));
    await r.until((l) => l.length >= 2);
    expect(r.lines[0]).toEqual({ line: 1, text: 'windows' });
    // A line longer than MAX_LINE bytes is cut there, on a character boundary.
    const cut = r.lines[1]?.text ?? '';
    expect(cut.length).toBeGreaterThan(20_000);
    expect(big.startsWith(cut)).toBe(true);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_LINE);
  });

  it('cuts an enormous line without a newline and goes on with the next line', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, `${'x'.repeat(5_000_000)}\nafter\n`);
    const r = reader(createLogFollower({ path }));
    await r.until((l) => l.some((line) => line.text === 'after'));
    expect(r.lines.map((l) => [l.line, l.text.length])).toEqual([
      [1, MAX_LINE],
      [2, 5],
    ]);
  });

  it('drain() reads what is written now, and with final hands over an unterminated last line', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, 'before\n');
    const follower = createLogFollower({ path, fromOffset: 7 });
    followers.push(follower);
    await appendFile(path, 'crash line one\nKilled');
    expect(await follower.drain()).toEqual([{ line: 2, text: 'crash line one' }]);
    expect(await follower.drain({ final: true })).toEqual([{ line: 3, text: 'Killed' }]);
  });

  it('ends the iteration when its signal aborts', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, 'x\n');
    const controller = new AbortController();
    const seen: FollowedLine[] = [];
    const iteration = (async () => {
      for await (const batch of followLog({ path, signal: controller.signal })) seen.push(...batch);
    })();
    // Abort once the line is read (a fixed wait flaked on a busy machine), then the iteration must end.
    const deadline = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await iteration;
    expect(seen).toEqual([{ line: 1, text: 'x' }]);
  });

  it('ends when its signal aborts while the consumer holds a batch', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    await writeFile(path, 'one\ntwo\n');
    const controller = new AbortController();
    const batches: number[] = [];
    for await (const batch of followLog({ path, signal: controller.signal })) {
      batches.push(batch.length);
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(batches).toEqual([2]);
  });

  it('keeps up with a large file in big batches', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'server.log');
    const count = 200_000;
    await writeFile(
      path,
      Array.from({ length: count }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n') + '\n',
    );
    const r = reader(createLogFollower({ path }));
    await r.until((l) => l.length >= count, 30_000);
    expect(r.lines.at(-1)).toEqual({ line: count, text: `line ${count} ${'x'.repeat(40)}` });
  });
});
