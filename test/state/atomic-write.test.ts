import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/state/atomic-write.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

afterEach(removeTempDirs);

describe('writeFileAtomic', () => {
  it('creates missing folders and writes the file with the mode asked for', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'a', 'b', 'state.json');
    await writeFileAtomic(path, '{"v":1}\n', { mode: 0o600 });
    expect(await readFile(path, 'utf8')).toBe('{"v":1}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('replaces the content whole and leaves no temporary file', async () => {
    const dir = await makeTempDir();
    const path = join(dir, 'state.json');
    await writeFileAtomic(path, 'first version, rather long\n');
    await writeFileAtomic(path, 'second\n');
    expect(await readFile(path, 'utf8')).toBe('second\n');
    await writeFileAtomic(path, 'third\n');
    expect(await readFile(path, 'utf8')).toBe('third\n');
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});
