// The --help parser against every fixture version: its option set, choices, value-taking and required
// options must equal what the engine's own argparse tables say.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHelpText, stripAnsi, versionFromHelp } from '../../src/flags/schema/help-parser.ts';
import { pyStr } from '../../src/flags/argparse/py-values.ts';
import type { FlagSchema, FlagsJsonAction } from '../../src/flags/schema/schema.ts';
import { renderHelp, type RenderOptions } from './render-help.ts';

const FIXTURES = new URL('../fixtures/flags/', import.meta.url);
const versions = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.help.txt'))
  .map((name) => name.replace(/\.help\.txt$/, ''));

const meta = (name: string) => ({
  engine: name.startsWith('vllm') ? ('vllm' as const) : ('sglang' as const),
  version: null,
  source: { kind: 'help-file' as const, engine: 'x', version: null, path: name },
});

// What --help can show about an action's choices: the metavar replaces them when one is set.
const visibleChoices = (action: FlagsJsonAction): string[] | null => {
  if (action.metavar !== undefined && action.metavar !== null) {
    const match = typeof action.metavar === 'string' ? /^\{([^}]*)\}$/.exec(action.metavar) : null;
    return match === null ? null : (match[1] ?? '').split(',');
  }
  return action.choices === null ? null : action.choices.map(pyStr);
};

// Every difference between a parsed help text and the argparse table it came from.
const compareWithTable = (schema: FlagSchema, table: readonly FlagsJsonAction[]): string[] => {
  const visible = table.filter((a) => !a.help_suppressed);
  const problems: string[] = [];
  const expectedStrings = visible.flatMap((a) => a.flags).sort();
  const parsedStrings = schema.options.flatMap((o) => o.strings).sort();
  if (JSON.stringify(parsedStrings) !== JSON.stringify(expectedStrings)) problems.push('option sets differ');
  const byFirst = new Map(schema.options.map((o) => [o.strings[0], o]));
  for (const action of visible.filter((a) => a.flags.length > 0)) {
    const name = String(action.flags[0]);
    const parsed = byFirst.get(action.flags[0]);
    if (parsed === undefined) {
      problems.push(`${name}: not parsed as its own entry`);
      continue;
    }
    if (JSON.stringify(parsed.strings) !== JSON.stringify(action.flags)) problems.push(`${name}: aliases`);
    if (JSON.stringify(parsed.choices) !== JSON.stringify(visibleChoices(action))) {
      problems.push(`${name}: choices ${JSON.stringify(parsed.choices)}`);
    }
    const takesValue =
      action.nargs !== 0 &&
      !/store_true|store_false|store_const|help|boolean_optional|count/i.test(action.action);
    if ((parsed.nargs !== 0) !== takesValue) problems.push(`${name}: value-taking`);
    if (parsed.required !== action.required) problems.push(`${name}: required`);
  }
  const positionals = visible.filter((a) => a.flags.length === 0).map((p) => [p.dest, p.nargs]);
  if (JSON.stringify(schema.positionals.map((p) => [p.dest, p.nargs])) !== JSON.stringify(positionals)) {
    problems.push('positionals differ');
  }
  return problems;
};

const readTable = (version: string): FlagsJsonAction[] =>
  JSON.parse(readFileSync(new URL(`${version}.flags.json`, FIXTURES), 'utf8')) as FlagsJsonAction[];

describe('parseHelpText on every fixture version', () => {
  it('finds all fixture versions', () => {
    expect(versions.length).toBeGreaterThanOrEqual(8);
  });

  for (const version of versions) {
    it(`${version}: options, choices, value-taking and required match the argparse table`, () => {
      const help = readFileSync(new URL(`${version}.help.txt`, FIXTURES), 'utf8');
      const schema = parseHelpText(help, meta(version));
      expect(schema.options.length).toBeGreaterThan(90);
      expect(compareWithTable(schema, readTable(version))).toEqual([]);
    });
  }

  const variants: RenderOptions[] = [
    { prog: 'launch_server.py', width: 60, layout: 'py38', ansi: false },
    { prog: 'sglang serve', width: 200, layout: 'py313', ansi: true },
    { prog: '/opt/venv/bin/python3 -m x', width: 100, layout: 'py311', ansi: false },
    { prog: 'p', width: 34, layout: 'py313', ansi: false },
  ];
  for (const version of versions) {
    it(`${version}: the same table re-rendered at other widths, program names and layouts`, () => {
      const table = readTable(version);
      for (const variant of variants) {
        const help = renderHelp(table, variant);
        expect(help).toContain(variant.layout === 'py38' ? 'optional arguments:' : 'options:');
        const schema = parseHelpText(help, meta(version));
        expect({ variant, problems: compareWithTable(schema, table) }).toEqual({ variant, problems: [] });
      }
    });
  }

  it('reads nargs from the metavar layout', () => {
    const help = readFileSync(new URL('vllm-v0.19.1.help.txt', FIXTURES), 'utf8');
    const schema = parseHelpText(help, meta('vllm-v0.19.1'));
    const find = (s: string) => schema.options.find((o) => o.strings.includes(s));
    expect(find('--collect-detailed-traces')?.nargs).toBe('+');
    expect(find('--tensor-parallel-size')).toMatchObject({
      strings: ['--tensor-parallel-size', '-tp'],
      nargs: null,
    });
    expect(find('--enable-log-requests')).toMatchObject({ nargs: 0, action: 'boolean_optional' });
    expect(find('--help')?.action).toBe('help');
    expect(versionFromHelp(help)).toBe('0.19.1');
  });

  it('lists no options for the vLLM summary help', () => {
    const summary = readFileSync(new URL('vllm-v0.19.1.help-summary.txt', FIXTURES), 'utf8');
    expect(parseHelpText(summary, meta('vllm-v0.19.1')).options).toEqual([]);
  });

  it('strips ANSI colour codes', () => {
    expect(stripAnsi('\u001b[1;34m--port\u001b[0m \u001b[33mPORT\u001b[0m')).toBe('--port PORT');
  });
});
