// Everything about one engine lives in src/engines/<engine>/: the engine-neutral folders name no engine in their
// code (comments may, to say where a shape comes from).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMED_ENGINES } from '../../src/engines/index.ts';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const FOLDERS = ['diagnose', 'watch', 'flags', 'ckpt', 'sim', 'smoke', 'bench'];

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

// The code of a file with its comments removed (line comments after code too; `//` inside a string such as a URL
// goes with them, which only makes the check more lenient).
const codeOf = (text: string): string =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/(^|[^:'"`])\/\/.*$/, '$1'))
    .join('\n');

describe('engine names', () => {
  const names = NAMED_ENGINES.flatMap((spec) => [spec.id, spec.label]);
  const pattern = new RegExp(`\\b(?:${names.join('|')})\\b`, 'i');

  it.each(FOLDERS)('src/%s names no engine in its code', (folder) => {
    const offenders = filesUnder(join(SRC, folder)).flatMap((file) =>
      codeOf(readFileSync(file, 'utf8'))
        .split('\n')
        .filter((line) => pattern.test(line))
        .map((line) => `${file.slice(SRC.length + 1)}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
