// parseArgv against Python 3.11's own argparse: every recorded argv must give argparse's exact first error.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/flags/argparse/parse.ts';
import { schemaFromFlagsJson, type FlagsJsonAction } from '../../src/flags/schema/schema.ts';

interface OracleCase {
  argv: string[];
  error: string | null;
  help: boolean;
}
interface Oracle {
  python: string;
  tables: Record<string, OracleCase[]>;
}

const oracle = JSON.parse(
  readFileSync(new URL('../fixtures/flags/argparse-oracle.json', import.meta.url), 'utf8'),
) as Oracle;

// The oracle runs plain argparse, so the schemas are read without vLLM's argv rewriting.
const plainSchema = (file: string) => {
  const actions = JSON.parse(
    readFileSync(new URL(`../fixtures/flags/${file}`, import.meta.url), 'utf8'),
  ) as FlagsJsonAction[];
  const schema = schemaFromFlagsJson(actions, {
    engine: file.startsWith('vllm') ? 'vllm' : 'sglang',
    version: null,
    source: { kind: 'bundled', engine: 'x', version: null, path: file },
  });
  return { ...schema, dialect: 'argparse' as const };
};

describe('parseArgv agrees with Python argparse', () => {
  it('was recorded with Python 3.11', () => {
    expect(oracle.python).toMatch(/^3\.11\./);
  });

  for (const [file, cases] of Object.entries(oracle.tables)) {
    it(`${file}: ${String(cases.length)} command lines`, () => {
      const schema = plainSchema(file);
      const mismatches: string[] = [];
      for (const c of cases) {
        const result = parseArgv(schema, c.argv);
        const help = result.helpIndex !== null;
        if (result.argparseError !== c.error || help !== c.help) {
          mismatches.push(
            `${JSON.stringify(c.argv)}\n  argparse: ${String(c.error)} help=${String(c.help)}\n  vigil:    ${String(result.argparseError)} help=${String(help)}`,
          );
        }
      }
      expect(mismatches).toEqual([]);
      expect(cases.some((c) => c.error === null)).toBe(true);
      expect(cases.some((c) => c.error !== null)).toBe(true);
    });
  }
});
