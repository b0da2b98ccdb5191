// Value checks beyond argparse's own: the engine's type callables (optional ints, human-readable sizes,
// JSON) and model paths that are clearly local and must exist on the host the server will run on.
import type { Finding } from '../../events.ts';
import type { HostRunner } from '../../hosts/types.ts';
import type { ArgparseResult, ParsedOption } from '../argparse/parse.ts';
import { pyFloat, pyInt } from '../argparse/py-values.ts';
import type { FlagSchema } from '../schema/schema.ts';

/** Options whose value names model weights: a local path there must exist. */
const PATH_DESTS = new Set([
  'model_path',
  'speculative_draft_model_path',
  'model',
  'model_tag',
  'tokenizer_path',
]);
const NONE_TEXT = new Set(['', 'None']);
const HUMAN_INT = /^-?\d+(?:\.\d+)?\s*(?:[kKmMgGtT]i?)?$/;

// A value that is clearly a local path (anything else may be a hub id such as org/name).
export const isLocalPath = (value: string): boolean =>
  value.startsWith('/') ||
  value.startsWith('./') ||
  value.startsWith('../') ||
  value === '~' ||
  value.startsWith('~/');

const finding = (
  use: ParsedOption,
  i: number,
  code: string,
  message: string,
  severity: Finding['severity'],
): Finding => ({
  severity,
  code,
  index: use.valueIndexes[i] ?? use.index,
  arg: use.values[i] ?? null,
  message,
  suggestions: [],
});

const checkJson = (use: ParsedOption, i: number, text: string): Finding | null => {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return finding(
      use,
      i,
      'invalid-json',
      `${use.resolved} expects JSON, got ${JSON.stringify(text)} (${reason})`,
      'error',
    );
  }
  if (!use.option.strings.includes('--speculative-config')) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return finding(
      use,
      i,
      'invalid-json',
      `${use.resolved} expects a JSON object such as {"model": "...", "num_speculative_tokens": 5}`,
      'error',
    );
  }
  const tokens = (value as Record<string, unknown>)['num_speculative_tokens'];
  if (tokens !== undefined && !(Number.isInteger(tokens) && Number(tokens) > 0)) {
    return finding(
      use,
      i,
      'invalid-value',
      `num_speculative_tokens in ${use.resolved} must be a positive integer, got ${JSON.stringify(tokens)}`,
      'error',
    );
  }
  return null;
};

// The type the engine's parser converts with; for help-derived schemas, borrowed from a bundled table.
const typeOf = (use: ParsedOption, typed: FlagSchema | null): string | null => {
  if (use.option.pyType !== undefined) return use.option.pyType;
  const borrowed = typed?.options.find((o) => o.strings.includes(use.resolved));
  return borrowed?.pyType ?? use.option.type;
};

const checkType = (use: ParsedOption, i: number, text: string, type: string): Finding | null => {
  const inner = /^optional_type\((.*)\)$/.exec(type)?.[1];
  if (inner !== undefined && NONE_TEXT.has(text)) return null;
  const base = inner ?? type;
  if (/json\.loads/.test(base) || use.option.strings.includes('--speculative-config')) {
    return NONE_TEXT.has(text) && inner !== undefined ? null : checkJson(use, i, text);
  }
  if (inner !== undefined && base === 'int' && pyInt(text) === null) {
    return finding(
      use,
      i,
      'invalid-value',
      `${use.resolved} expects an integer or None, got ${JSON.stringify(text)}`,
      'error',
    );
  }
  if (inner !== undefined && base === 'float' && pyFloat(text) === null) {
    return finding(
      use,
      i,
      'invalid-value',
      `${use.resolved} expects a number or None, got ${JSON.stringify(text)}`,
      'error',
    );
  }
  if (
    /human_readable_int/.test(base) &&
    !HUMAN_INT.test(text) &&
    !(base.includes('auto') && text === 'auto')
  ) {
    return finding(
      use,
      i,
      'invalid-value',
      `${use.resolved} expects an integer, optionally with a size suffix such as 32k, got ${JSON.stringify(text)}`,
      'warning',
    );
  }
  return null;
};

// The server's --port must be one it can listen on and vigil can probe: argparse accepts any integer.
const portFindings = (use: ParsedOption): Finding[] =>
  use.values.flatMap((text, i) => {
    const int = pyInt(text);
    const port = int === null ? null : Number(int);
    if (port === null || (port >= 1 && port <= 65535)) return [];
    return [
      finding(
        use,
        i,
        'invalid-value',
        `${use.resolved} must be a port from 1 to 65535, got ${text}`,
        'error',
      ),
    ];
  });

// Type findings for every value argparse consumed (argparse itself already checked plain int/float).
// Types borrowed from another release's table (`exact` false) only warn: the option may have changed type.
export const typeFindings = (parsed: ArgparseResult, typed: FlagSchema | null, exact = true): Finding[] => {
  const findings: Finding[] = [];
  for (const use of parsed.options) {
    if (use.option.dest === 'port') findings.push(...portFindings(use));
    const type = typeOf(use, typed);
    if (type === null || use.option.nargs === 0) continue;
    use.values.forEach((text, i) => {
      const found = checkType(use, i, text, type);
      const borrowed = !exact && use.option.pyType === undefined;
      if (found !== null)
        findings.push(borrowed && found.severity === 'error' ? { ...found, severity: 'warning' } : found);
    });
  }
  return findings;
};

interface PathCandidate {
  index: number;
  arg: string;
  label: string;
  path: string;
}

const pathCandidates = (parsed: ArgparseResult, schema: FlagSchema): PathCandidate[] => {
  const found: PathCandidate[] = [];
  for (const use of parsed.options) {
    if (PATH_DESTS.has(use.option.dest)) {
      use.values.forEach((value, i) => {
        if (isLocalPath(value))
          found.push({
            index: use.valueIndexes[i] ?? use.index,
            arg: value,
            label: use.resolved,
            path: value,
          });
      });
    } else if (use.option.strings.includes('--speculative-config')) {
      for (const [i, text] of use.values.entries()) {
        try {
          const model = (JSON.parse(text) as Record<string, unknown> | null)?.['model'];
          if (typeof model === 'string' && isLocalPath(model)) {
            found.push({
              index: use.valueIndexes[i] ?? use.index,
              arg: text,
              label: `${use.resolved} "model"`,
              path: model,
            });
          }
        } catch {
          // invalid JSON is reported by typeFindings
        }
      }
    }
  }
  if (schema.positionals.some((p) => p.dest === 'model_tag')) {
    const model = parsed.positionals[0];
    if (model !== undefined && isLocalPath(model.value)) {
      found.push({ index: model.index, arg: model.value, label: 'the model', path: model.value });
    }
  }
  return found;
};

// Local model paths that do not exist on the host the server will run on.
export const pathFindings = async (
  parsed: ArgparseResult,
  schema: FlagSchema,
  host: HostRunner,
): Promise<Finding[]> => {
  const candidates = pathCandidates(parsed, schema);
  const exists = await Promise.all(candidates.map((c) => host.pathExists(c.path)));
  return candidates
    .filter((_, i) => exists[i] !== true)
    .map((c) => ({
      severity: 'error' as const,
      code: 'path-not-found',
      index: c.index,
      arg: c.arg,
      message: `${c.label}: ${c.path} does not exist on ${host.name === 'local' ? 'this machine' : host.name}; a local path (starting with /, ./ or ~) must exist where the server runs, anything else is read as a hub id`,
      suggestions: [],
    }));
};
