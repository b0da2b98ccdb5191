// Every option a command's --help lists is documented in the reference pages, so the docs cannot fall behind.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/main.ts';

const PAGES = ['cli.md', 'remote.md', 'bench.md', 'ckpt.md', 'simulator.md'];
const docs = PAGES.map((page) => readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8')).join(
  '\n',
);

const COMMANDS = [
  ['up'],
  ['wait'],
  ['check'],
  ['diagnose'],
  ['status'],
  ['stop'],
  ['logs'],
  ['attach'],
  ['sim'],
  ['smoke'],
  ['bench'],
  ['demo'],
  ['ckpt', 'inspect'],
  ['ckpt', 'rename'],
  ['ckpt', 'check-draft'],
];

describe('the reference pages', () => {
  it.each(COMMANDS.map((argv) => [argv.join(' '), argv] as const))(
    'document every option of vigil %s',
    async (_name, argv) => {
      const help = await runMain([...argv, '--help']);
      expect(help.code).toBe(0);
      const options = [...help.stdout.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1] ?? '');
      expect(options.length).toBeGreaterThan(0);
      const missing = options.filter((option) => option !== '--help' && !docs.includes(option));
      expect(missing).toEqual([]);
    },
  );
});
