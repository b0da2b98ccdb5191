// vLLM's FlexibleArgumentParser rewrites argv before argparse sees it; vigil must rewrite it the same way.
// Facts (from vLLM's parse_args): `_`→`-` in option names, `--help=X`→`--help`, `-O<n>` shorthands, and
// dotted JSON keys (`--speculative-config.num_speculative_tokens 5`) merged into one JSON argument at the end.
import type { NormalizedArgv, NormalizedToken } from '../types.ts';
import type { FlagSchema } from '../../flags/schema/schema.ts';

/** One argument after normalisation, with the index of the argument it came from. */
export type { NormalizedToken } from '../types.ts';

const OPTIMIZATION_LEVELS = new Set(['0', '1', '2', '3']);

// Releases before dotted JSON keys existed replaced every `_` in an option name.
const hasDottedKeys = (version: string | null): boolean => {
  if (version === null) return true;
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return major > 0 || minor >= 10;
};

const dashName = (key: string, dotted: boolean): string => {
  const body = key.slice(2);
  if (!dotted) return `--${body.replace(/_/g, '-')}`;
  const dot = body.indexOf('.');
  const head = dot === -1 ? body : body.slice(0, dot);
  return `--${head.replace(/_/g, '-')}${dot === -1 ? '' : body.slice(dot)}`;
};

const rewriteOne = (
  arg: string,
  next: string | undefined,
  schema: FlagSchema,
  optionStrings: ReadonlySet<string>,
  dotted: boolean,
): string[] => {
  if (arg.startsWith('--help=')) return ['--help'];
  if (arg.startsWith('--')) {
    const eq = arg.indexOf('=');
    return eq === -1 ? [dashName(arg, dotted)] : [`${dashName(arg.slice(0, eq), dotted)}${arg.slice(eq)}`];
  }
  // Newer releases spell -O as --optimization-level; older ones have a real `-O` option argparse handles.
  if (optionStrings.has('-O') || !optionStrings.has('--optimization-level') || schema.engine !== 'vllm') {
    return [arg];
  }
  if (arg.startsWith('-O') && arg.length > 2 && arg[2] !== '.') {
    return ['--optimization-level', arg[2] === '=' ? arg.slice(3) : arg.slice(2)];
  }
  if (arg === '-O' && next !== undefined && OPTIMIZATION_LEVELS.has(next)) return ['--optimization-level'];
  return [arg];
};

// json.dumps with Python's default separators and ensure_ascii, so rebuilt arguments read as vLLM's do.
export const pyJsonDumps = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pyJsonDumps(k)}: ${pyJsonDumps(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  return value === undefined ? 'null' : JSON.stringify(value);
};

const parseJsonOr = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const mergeInto = (target: Record<string, unknown>, keys: readonly string[], value: unknown): void => {
  let node = target;
  for (const [i, key] of keys.entries()) {
    if (i === keys.length - 1) {
      const old = node[key];
      node[key] =
        Array.isArray(old) && Array.isArray(value) ? [...(old as unknown[]), ...(value as unknown[])] : value;
      return;
    }
    const child = node[key];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
};

/** The rewritten argv, plus dotted keys whose value was missing (vLLM itself crashes on those). */
export type { NormalizedArgv } from '../types.ts';

// Rewrites argv as vLLM's FlexibleArgumentParser does before handing it to argparse.
export const normalizeFlexibleArgv = (
  schema: FlagSchema,
  argv: readonly string[],
  optionStrings: ReadonlySet<string>,
): NormalizedArgv => {
  const dotted = hasDottedKeys(schema.version);
  const rewritten: NormalizedToken[] = [];
  argv.forEach((arg, origin) => {
    for (const text of rewriteOne(arg, argv[origin + 1], schema, optionStrings, dotted)) {
      rewritten.push({ text, origin });
    }
  });
  if (!dotted) return { tokens: rewritten, missingValue: [] };

  const groups = new Map<string, { origin: number; value: Record<string, unknown> }>();
  const deleted = new Set<number>();
  const missingValue: NormalizedToken[] = [];
  rewritten.forEach((token, i) => {
    if (deleted.has(i) || !token.text.startsWith('-') || !token.text.includes('.')) return;
    let key = token.text;
    let valueText: string;
    const eq = key.indexOf('=');
    if (eq !== -1) {
      valueText = key.slice(eq + 1);
      key = key.slice(0, eq);
      if (!key.includes('.')) return;
    } else {
      const next = rewritten[i + 1];
      if (next === undefined) {
        missingValue.push(token);
        deleted.add(i);
        return;
      }
      valueText = next.text;
      deleted.add(i + 1);
    }
    let value: unknown;
    if (key.endsWith('+')) {
      key = key.slice(0, -1);
      value = valueText.split(',');
    } else {
      value = parseJsonOr(valueText);
    }
    const [name = key, ...keys] = key.split('.');
    const group = groups.get(name) ?? { origin: token.origin, value: {} };
    groups.set(name, group);
    mergeInto(group.value, keys, value);
    deleted.add(i);
  });
  const tokens = rewritten.filter((_, i) => !deleted.has(i));
  for (const [name, group] of groups) {
    tokens.push(
      { text: name, origin: group.origin },
      { text: pyJsonDumps(group.value), origin: group.origin },
    );
  }
  return { tokens, missingValue };
};
