// The README's worked examples that do not depend on timing (`vigil check`, `vigil diagnose`) print exactly what
// the README shows, so the README cannot drift from the product.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

interface Example {
  args: string[];
  output: string;
  exit?: number;
}

// Each `$ vigil check|diagnose …` line in a code block, the lines up to the next `$ ` line, and a following
// `$ echo $?` answer if there is one.
const examples = (): Example[] => {
  const found: Example[] = [];
  for (const block of README.split('```').filter((_, i) => i % 2 === 1)) {
    const lines = block.split('\n');
    lines.forEach((line, i) => {
      const command = /^\$ vigil ((?:check|diagnose) .*)$/.exec(line);
      if (command === null) return;
      const end = lines.findIndex((next, j) => j > i && next.startsWith('$ '));
      const output = lines.slice(i + 1, end === -1 ? undefined : end).join('\n');
      const exit = end !== -1 && lines[end] === '$ echo $?' ? Number(lines[end + 1]) : undefined;
      found.push({
        args: (command[1] ?? '').split(' '),
        output: output.trim(),
        ...(exit === undefined ? {} : { exit }),
      });
    });
  }
  return found;
};

describe('README examples', () => {
  const all = examples();

  it('finds the check and diagnose examples', () => {
    expect(all.map((example) => example.args[0])).toEqual(expect.arrayContaining(['check', 'diagnose']));
  });

  it.each(all.map((example) => [example.args.join(' '), example] as const))(
    'vigil %s',
    async (_name, example) => {
      const run = await runVigil(example.args);
      expect(`${run.stdout}${run.stderr}`.trim()).toBe(example.output);
      if (example.exit !== undefined) expect(run.code).toBe(example.exit);
    },
  );
});
