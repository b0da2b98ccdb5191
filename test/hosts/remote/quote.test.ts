// The one quoting function: every adversarial argument reaches a real POSIX shell's argv unchanged, and nothing
// in it runs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shellJoin, shellQuote } from '../../../src/hosts/remote/quote.ts';
import { makeTempDir, removeTempDirs } from '../../helpers/temp.ts';

afterEach(removeTempDirs);

// Arguments an attacker or an unlucky user could type; `CANARY` is replaced by a file path that must not appear.
const ADVERSARIAL = [
  'plain',
  'two words',
  "it's",
  'say "hi"',
  `both ' and "`,
  "'''",
  '$(touch CANARY)',
  '`touch CANARY`',
  '; touch CANARY',
  '&& touch CANARY',
  '| touch CANARY',
  'line one\nline two\n; touch CANARY',
  '*',
  '/etc/*',
  '?',
  '[a-z]*',
  '--leading-dashes',
  '-',
  '~',
  '~root',
  '$HOME',
  '${HOME}',
  '\\',
  '\\n',
  'tab\there',
  'ünïcødé ✓ 日本語',
  '',
  ' ',
  '!',
  '#comment',
  '{a,b}',
  '>/tmp/CANARY',
];

describe('shellQuote', () => {
  it('wraps in single quotes and escapes single quotes', () => {
    expect(shellQuote('abc')).toBe("'abc'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
  });

  it('refuses a NUL byte, which no shell argument can carry', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });

  for (const shell of ['sh', 'bash']) {
    it(`round-trips every adversarial argument through ${shell} without running any of it`, async () => {
      const dir = await makeTempDir();
      const canary = join(dir, 'canary');
      const args = ADVERSARIAL.map((arg) => arg.replaceAll('CANARY', canary));
      const out = execFileSync(shell, ['-c', `printf '%s\\0' ${shellJoin(args)}`], { cwd: dir });
      const received = out.toString('utf8').split('\0').slice(0, -1);
      expect(received).toEqual(args);
      expect(existsSync(canary)).toBe(false);
    });
  }

  it('round-trips through a script read on stdin (how remote scripts travel)', async () => {
    const dir = await makeTempDir();
    const canary = join(dir, 'canary');
    const args = ADVERSARIAL.map((arg) => arg.replaceAll('CANARY', canary));
    const out = execFileSync('sh', ['-s'], { input: `{\nprintf '%s\\0' ${shellJoin(args)}\n}\n`, cwd: dir });
    expect(out.toString('utf8').split('\0').slice(0, -1)).toEqual(args);
    expect(existsSync(canary)).toBe(false);
  });
});
