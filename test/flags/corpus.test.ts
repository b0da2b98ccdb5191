// Corpus: for each fixture help text, hundreds of random command lines argparse accepts get no error;
// then mutated ones (typos, reordered words, the other engine's names, `_` for SGLang) get the intended
// option as their first suggestion in at least 95% of cases.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findEntrypoint } from '../../src/engines/entrypoint.ts';
import { localHost } from '../../src/hosts/local.ts';
import { CROSS_ENGINE_PAIRS } from '../../src/flags/checks/aliases.ts';
import { optionLookup } from '../../src/flags/argparse/parse.ts';
import { parseHelpText } from '../../src/flags/schema/help-parser.ts';
import { checkCommand } from '../../src/flags/preflight.ts';
import type { FlagOption, FlagSchema, FlagsJsonAction } from '../../src/flags/schema/schema.ts';

const FIXTURES = new URL('../fixtures/flags/', import.meta.url);
const VERSIONS = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.help.txt'))
  .map((name) => name.replace(/\.help\.txt$/, ''));
const VALID_LINES = 300;

// mulberry32: a small seeded generator, so every run checks the same corpus.
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
type Rng = ReturnType<typeof random>;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

const valueFor = (option: FlagOption, type: string | null, rng: Rng): string | null => {
  if (option.choices !== null && option.choices.length > 0) return pick(rng, option.choices);
  const t = type ?? 'str';
  if (/\bint\b|human_readable/.test(t)) return String(1 + Math.floor(rng() * 64));
  if (/float/.test(t)) return pick(rng, ['0.5', '0.85', '1.0']);
  if (/json_list/.test(t)) return '[]';
  if (/json|dict|dataclass|from_cli|from_json/.test(t)) return '{}';
  if (t === 'bool') return 'true';
  if (/^(str|nullable_str|optional_type\(str\))$/.test(t)) return pick(rng, ['org/name', 'value', 'auto-x']);
  return null;
};

interface Use {
  tokens: string[];
  /** Position of the option token inside `tokens`. */
  at: number;
  option: FlagOption;
}

// The shortest prefix of a long option string that no other option string starts with, if any.
const uniquePrefix = (name: string, strings: readonly string[]): string | null => {
  for (let n = 4; n < name.length; n++) {
    const prefix = name.slice(0, n);
    if (strings.filter((s) => s.startsWith(prefix)).length === 1) return prefix;
  }
  return null;
};

const buildUse = (option: FlagOption, type: string | null, schema: FlagSchema, rng: Rng): Use | null => {
  const strings = [...optionLookup(schema).keys()];
  let name = pick(rng, option.strings);
  const values: string[] = [];
  const count =
    option.nargs === 0
      ? 0
      : option.nargs === null
        ? 1
        : option.nargs === '?'
          ? Math.floor(rng() * 2)
          : option.nargs === '+'
            ? 1
            : option.nargs === '*'
              ? Math.floor(rng() * 2)
              : option.nargs;
  for (let i = 0; i < count; i++) {
    const value = valueFor(option, type, rng);
    if (value === null) return null;
    values.push(value);
  }
  if (name.startsWith('--') && rng() < 0.1) name = uniquePrefix(name, strings) ?? name;
  if (schema.engine === 'vllm' && name.startsWith('--') && rng() < 0.15)
    name = `--${name.slice(2).replace(/-/g, '_')}`;
  if (name.startsWith('--') && count === 1 && option.nargs !== '+' && rng() < 0.2)
    return { tokens: [`${name}=${values[0] ?? ''}`], at: 0, option };
  return { tokens: [name, ...values], at: 0, option };
};

interface Corpus {
  schema: FlagSchema;
  base: string[];
  lines: { uses: Use[] }[];
}

const SKIP = /^--(speculative-algorithm|help|config)$/;

const buildCorpus = (version: string): Corpus => {
  const engine = version.startsWith('vllm') ? 'vllm' : 'sglang';
  const help = readFileSync(new URL(`${version}.help.txt`, FIXTURES), 'utf8');
  const table = JSON.parse(
    readFileSync(new URL(`${version}.flags.json`, FIXTURES), 'utf8'),
  ) as FlagsJsonAction[];
  const types = new Map(table.flatMap((a) => a.flags.map((f) => [f, a.type] as const)));
  const schema = parseHelpText(help, {
    engine,
    version: null,
    source: { kind: 'help-file', engine, version: null, path: version },
  });
  const rng = random(version.length * 7919 + version.charCodeAt(7));
  const candidates = schema.options.filter((o) => !o.strings.some((s) => SKIP.test(s)) && !o.required);
  const required = schema.options.filter((o) => o.required);
  const base =
    engine === 'sglang' ? ['python', '-m', 'sglang.launch_server'] : ['vllm', 'serve', 'org/model'];
  const lines: Corpus['lines'] = [];
  while (lines.length < VALID_LINES) {
    const chosen = new Set<FlagOption>(required);
    const size = 3 + Math.floor(rng() * 18);
    while (chosen.size < size + required.length) chosen.add(pick(rng, candidates));
    const uses: Use[] = [];
    for (const option of chosen) {
      const use = option.required
        ? { tokens: [option.strings[0] ?? '', 'org/name'], at: 0, option }
        : buildUse(option, types.get(option.strings[0] ?? '') ?? null, schema, rng);
      if (use !== null) uses.push(use);
    }
    lines.push({ uses });
  }
  return { schema, base, lines };
};

const commandOf = (corpus: Corpus, uses: readonly Use[]): string[] => [
  ...corpus.base,
  ...uses.flatMap((u) => u.tokens),
];

const run = async (corpus: Corpus, command: string[]) => {
  const entry = findEntrypoint(command);
  if (entry === null) throw new Error('no entrypoint');
  const choice = { schema: corpus.schema, authoritative: true, engineVersion: null, findings: [] };
  return checkCommand({ command, entry, choice, host: localHost, strict: false });
};

// A name argparse would not accept as written or as an abbreviation (after vLLM's rewriting).
const isUnknown = (schema: FlagSchema, name: string): boolean => {
  const spelled = schema.engine === 'vllm' ? `--${name.slice(2).replace(/_/g, '-')}` : name;
  return ![...optionLookup(schema).keys()].some((s) => s.startsWith(spelled));
};

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const typo = (name: string, rng: Rng): string => {
  const body = name.slice(2);
  const i = Math.floor(rng() * body.length);
  const op = Math.floor(rng() * 4);
  const letter = pick(rng, LETTERS);
  if (op === 0) return `--${body.slice(0, i)}${body.slice(i + 1)}`;
  if (op === 1) return `--${body.slice(0, i)}${letter}${body.slice(i)}`;
  if (op === 2) return `--${body.slice(0, i)}${letter}${body.slice(i + 1)}`;
  const j = Math.min(i + 1, body.length - 1);
  return `--${body.slice(0, i)}${body[j] ?? ''}${body[i] ?? ''}${body.slice(j + 1)}`;
};

const reorder = (name: string, rng: Rng): string => {
  const words = name.slice(2).split('-');
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [words[i], words[j]] = [words[j] ?? '', words[i] ?? ''];
  }
  return `--${words.join('-')}`;
};

interface Mutation {
  kind: string;
  uses: Use[];
  index: number;
  expected: readonly string[];
}

const mutate = (corpus: Corpus, uses: readonly Use[], rng: Rng): Mutation[] => {
  const { schema } = corpus;
  const mutations: Mutation[] = [];
  const target = pick(
    rng,
    uses.filter((u) => u.option.strings.some((s) => s.startsWith('--') && s.length >= 8)),
  );
  const position = uses.indexOf(target);
  const index = corpus.base.length + uses.slice(0, position).reduce((n, u) => n + u.tokens.length, 0);
  const original = target.option.strings.find((s) => s.startsWith('--') && s.length >= 8) ?? '';
  const withName = (name: string): Use[] => {
    const [head = '', ...rest] = target.tokens;
    const eq = head.indexOf('=');
    const token = eq === -1 ? name : `${name}${head.slice(eq)}`;
    return uses.map((u) => (u === target ? { ...u, tokens: [token, ...rest] } : u));
  };
  const add = (kind: string, name: string): void => {
    if (name !== original && isUnknown(schema, name))
      mutations.push({ kind, uses: withName(name), index, expected: target.option.strings });
  };
  add('typo', typo(original, rng));
  if (original.slice(2).includes('-')) add('reordered', reorder(original, rng));
  if (schema.engine === 'sglang' && original.slice(2).includes('-'))
    add('underscore', original.replace(/(?<=^--.*)-/g, '_'));
  const lookup = optionLookup(schema);
  const theirs = schema.engine === 'sglang' ? 'vllm' : 'sglang';
  const pairs = CROSS_ENGINE_PAIRS.flatMap((pair) =>
    (pair.spellings[theirs] ?? [])
      .filter((name) => isUnknown(schema, name))
      .map((name) => ({ name, ours: (pair.spellings[schema.engine] ?? []).filter((n) => lookup.has(n)) })),
  ).filter((p) => p.ours.length > 0);
  if (pairs.length > 0) {
    const pair = pick(rng, pairs);
    const counterpart = lookup.get(pair.ours[0] ?? '');
    const tokens = counterpart?.nargs === 0 ? [pair.name] : [pair.name, '8'];
    mutations.push({
      kind: 'other-engine',
      uses: [...uses, { tokens, at: 0, option: counterpart as FlagOption }],
      index: index + 0,
      expected: pair.ours,
    });
    const last = mutations.at(-1);
    if (last !== undefined) last.index = corpus.base.length + uses.reduce((n, u) => n + u.tokens.length, 0);
  }
  return mutations;
};

describe('corpus of random command lines per fixture version', () => {
  for (const version of VERSIONS) {
    it(`${version}: ${String(VALID_LINES)} valid lines pass, mutated ones get the intended option first`, async () => {
      const corpus = buildCorpus(version);
      const rng = random(42);
      const failures: string[] = [];
      const tally = new Map<string, { right: number; total: number }>();
      const misses: string[] = [];
      for (const line of corpus.lines) {
        const command = commandOf(corpus, line.uses);
        const outcome = await run(corpus, command);
        const errors = outcome.report.findings.filter((f) => f.severity === 'error');
        if (errors.length > 0)
          failures.push(`${command.join(' ')}\n  ${errors.map((e) => e.message).join('\n  ')}`);
        for (const mutation of mutate(corpus, line.uses, rng)) {
          const mutated = commandOf(corpus, mutation.uses);
          const result = await run(corpus, mutated);
          const finding = result.report.findings.find(
            (f) => f.index === mutation.index && f.severity === 'error',
          );
          const right =
            finding?.suggestions[0] !== undefined && mutation.expected.includes(finding.suggestions[0]);
          const entry = tally.get(mutation.kind) ?? { right: 0, total: 0 };
          tally.set(mutation.kind, { right: entry.right + (right ? 1 : 0), total: entry.total + 1 });
          if (!right)
            misses.push(
              `${mutation.kind}: ${String(mutated[mutation.index])} → ${String(finding?.suggestions[0])} (wanted ${mutation.expected.join('/')})`,
            );
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
      const right = [...tally.values()].reduce((n, t) => n + t.right, 0);
      const total = [...tally.values()].reduce((n, t) => n + t.total, 0);
      expect(total).toBeGreaterThan(VALID_LINES);
      const rates = Object.fromEntries(
        [...tally].map(([kind, t]) => [kind, `${String(t.right)}/${String(t.total)}`]),
      );
      if (process.env['VIGIL_CORPUS_REPORT'] === '1')
        console.log(version, (right / total).toFixed(3), rates, misses.slice(0, 6));
      expect({ rate: right / total >= 0.95, rates, misses: misses.slice(0, 8) }).toMatchObject({
        rate: true,
      });
    }, 120_000);
  }
});
