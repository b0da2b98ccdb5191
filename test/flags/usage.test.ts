import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBundledSchema } from '../../src/flags/schema/bundled.ts';
import { schemaFromFlagsJson, type FlagsJsonAction } from '../../src/flags/schema/schema.ts';
import { argparseWidth, formatArgparseError, formatUsage } from '../../src/flags/argparse/usage.ts';

const FIXTURES = new URL('../fixtures/flags/', import.meta.url);

const schemaOf = (actions: FlagsJsonAction[]) =>
  schemaFromFlagsJson(actions, {
    engine: 'sglang',
    version: null,
    source: { kind: 'bundled', engine: 'sglang', version: null, path: null },
  });

const action = (flags: string[], extra: Partial<FlagsJsonAction> = {}): FlagsJsonAction => ({
  flags,
  dest: (flags[0] ?? 'x').replace(/^-+/, '').replaceAll('-', '_'),
  nargs: null,
  required: false,
  help: 'h',
  help_suppressed: false,
  type: 'str',
  choices: null,
  default: null,
  action: 'store',
  ...extra,
});

describe('formatArgparseError', () => {
  it('reproduces SGLang v0.5.18 rejecting --num-speculative-tokens byte for byte (COLUMNS=100)', () => {
    const expected = readFileSync(new URL('sglang-v0.5.18.unknown-flag.txt', FIXTURES), 'utf8');
    const meta = JSON.parse(readFileSync(new URL('sglang-v0.5.18.unknown-flag.json', FIXTURES), 'utf8')) as {
      parser_prog: string;
    };
    const text = formatArgparseError(
      loadBundledSchema('sglang', '0.5.18'),
      'unrecognized arguments: --num-speculative-tokens 16',
      { prog: meta.parser_prog, width: argparseWidth({ COLUMNS: '100' }) },
    );
    expect(text).toBe(expected);
  });
});

describe('formatUsage', () => {
  it('keeps a short usage on one line', () => {
    const schema = schemaOf([
      action(['-h', '--help'], { nargs: 0, action: 'help', type: null }),
      action(['--port']),
      action(['--mode'], { choices: ['a', 'b'] }),
      action(['--model-path'], { required: true }),
    ]);
    expect(formatUsage(schema, { prog: 'p', width: 98 })).toBe(
      'usage: p [-h] [--port PORT] [--mode {a,b}] --model-path MODEL_PATH\n',
    );
  });

  it('omits hidden options and formats nargs, metavars and BooleanOptionalAction', () => {
    const schema = schemaOf([
      action(['--hidden'], { help_suppressed: true, help: null }),
      action(['--many'], { nargs: '+' }),
      action(['--any'], { nargs: '*' }),
      action(['--maybe'], { nargs: '?' }),
      action(['--two'], { nargs: 2, metavar: 'N' }),
      action(['--flag', '--no-flag'], { nargs: 0, action: 'boolean_optional', type: null }),
    ]);
    expect(formatUsage(schema, { prog: 'p', width: 200 })).toBe(
      'usage: p [--many MANY [MANY ...]] [--any [ANY ...]] [--maybe [MAYBE]] [--two N N] [--flag | --no-flag]\n',
    );
  });

  it('wraps under the program name, and puts a long program on its own line', () => {
    const schema = schemaOf([action(['--alpha']), action(['--beta']), action(['--gamma'])]);
    expect(formatUsage(schema, { prog: 'prog', width: 30 })).toBe(
      'usage: prog [--alpha ALPHA]\n            [--beta BETA]\n            [--gamma GAMMA]\n',
    );
    expect(formatUsage(schema, { prog: 'a-very-long-program', width: 30 })).toBe(
      'usage: a-very-long-program\n       [--alpha ALPHA]\n       [--beta BETA]\n       [--gamma GAMMA]\n',
    );
  });

  it('adds positionals after the options', () => {
    const schema = schemaOf([action(['--x']), action([], { dest: 'model_tag', nargs: '?' })]);
    expect(formatUsage(schema, { prog: 'p', width: 98 })).toBe('usage: p [--x X] [model_tag]\n');
  });
});

describe('argparseWidth', () => {
  it('reads COLUMNS, then the terminal, then falls back to 80, minus 2', () => {
    expect(argparseWidth({ COLUMNS: '120' }, 50)).toBe(118);
    expect(argparseWidth({ COLUMNS: 'x' }, 50)).toBe(48);
    expect(argparseWidth({})).toBe(78);
  });
});
