// SGLang's speculative-decoding rules that argparse cannot see (docs/engines/facts.md): the algorithm name,
// the draft model, and the all-or-none rule for steps / topk / draft tokens when their defaults are automatic.
import type { Finding } from '../../events.ts';
import type { ArgparseResult, ParsedOption } from '../../flags/argparse/parse.ts';
import type { FlagSchema } from '../../flags/schema/schema.ts';
import { suggestNames } from '../../flags/checks/suggest.ts';
import { compareVersions } from '../../flags/schema/versions.ts';

const TRIPLE = ['speculative_num_steps', 'speculative_eagle_topk', 'speculative_num_draft_tokens'] as const;
const FLAG: Record<(typeof TRIPLE)[number], string> = {
  speculative_num_steps: '--speculative-num-steps',
  speculative_eagle_topk: '--speculative-eagle-topk',
  speculative_num_draft_tokens: '--speculative-num-draft-tokens',
};
/** The release from which SGLang chooses steps, topk and draft tokens itself (v0.4.3 had 5, 8, 64). */
export const AUTO_SPECULATIVE_SINCE = '0.4.10';
/** Targets with built-in draft layers (MTP) reuse the model path as the draft under EAGLE. */
const MTP_HINT = /deepseek|glm-?4\.?5|glm4|mimo|bailing|ling-|mistral-large-3|kimi/i;

const lastUse = (parsed: ArgparseResult, dest: string): ParsedOption | undefined =>
  parsed.options.filter((use) => use.option.dest === dest).at(-1);

const intOf = (use: ParsedOption | undefined): number | null => {
  const text = use?.values[0];
  return text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : null;
};

/** What the rules need to know about the engine that will run. */
export interface SpeculativeContext {
  schema: FlagSchema;
  /** The installed release when vigil knows it; null when unknown. */
  engineVersion: string | null;
}

const algorithmFindings = (use: ParsedOption, schema: FlagSchema): Finding[] => {
  const algorithm = use.values[0] ?? '';
  if (use.option.choices !== null) return [];
  const builtins = /Builtins?:\s*([A-Z0-9_, ]+)/
    .exec(use.option.help ?? '')?.[1]
    ?.split(/,\s*/)
    .filter((b) => b !== '');
  if (builtins === undefined || builtins.includes(algorithm)) return [];
  const suggestions = [
    ...builtins.filter((b) => b.toLowerCase() === algorithm.toLowerCase()),
    ...suggestNames(algorithm, builtins).map((s) => s.name),
  ];
  return [
    {
      severity: 'warning',
      code: 'speculative-algorithm',
      index: use.valueIndexes[0] ?? use.index,
      arg: algorithm,
      message: `${algorithm} is not one of SGLang${schema.version === null ? '' : ` v${schema.version}`}'s built-in speculative algorithms (${builtins.join(', ')}); it works only if a plugin registers it`,
      suggestions: [...new Set(suggestions)],
    },
  ];
};

const draftFinding = (algorithm: ParsedOption, parsed: ArgparseResult): Finding | null => {
  const name = algorithm.values[0] ?? '';
  if (name !== 'EAGLE' && name !== 'EAGLE3') return null;
  if (lastUse(parsed, 'speculative_draft_model_path') !== undefined) return null;
  const model = lastUse(parsed, 'model_path')?.values[0] ?? '';
  const mtp = name === 'EAGLE' && MTP_HINT.test(model);
  return {
    severity: name === 'EAGLE3' ? 'error' : 'warning',
    code: 'speculative-draft-missing',
    index: algorithm.valueIndexes[0] ?? algorithm.index,
    arg: name,
    message:
      `--speculative-algorithm ${name} needs a draft model: add --speculative-draft-model-path <draft>` +
      (name === 'EAGLE3'
        ? ''
        : mtp
          ? ' (this target looks like it has built-in MTP layers, which SGLang uses as the draft)'
          : ' (models with built-in MTP layers, such as DeepSeek V3, need none)'),
    suggestions: ['--speculative-draft-model-path'],
  };
};

const partialFinding = (uses: (ParsedOption | undefined)[], ctx: SpeculativeContext): Finding | null => {
  const given = uses.filter((u): u is ParsedOption => u !== undefined);
  if (given.length === 0 || given.length === 3) return null;
  const version = ctx.engineVersion;
  if (version !== null && compareVersions(version, AUTO_SPECULATIVE_SINCE) < 0) return null;
  const [steps, topk, draft] = uses;
  const s = intOf(steps) ?? 3;
  const k = intOf(topk) ?? 1;
  const d = k === 1 ? s + 1 : (intOf(draft) ?? 8);
  const missing = TRIPLE.filter((_, i) => uses[i] === undefined).map((dest) => FLAG[dest]);
  const set = given.map((u) => u.resolved).join(' and ');
  const when =
    version === null
      ? `SGLang from v${AUTO_SPECULATIVE_SINCE} on (vigil does not know the installed release)`
      : `SGLang v${version}`;
  const firstGiven = given[0];
  return {
    severity: version === null ? 'warning' : 'error',
    code: 'speculative-partial',
    index: firstGiven?.index ?? null,
    arg: firstGiven?.typed ?? null,
    message:
      `${set} ${given.length === 1 ? 'is' : 'are'} set but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not: ` +
      `${when} chooses all three itself only when none is set, and stops at startup when some are. ` +
      `Set all three, e.g. --speculative-num-steps ${String(s)} --speculative-eagle-topk ${String(k)} --speculative-num-draft-tokens ${String(d)}, or none`,
    suggestions: missing,
  };
};

const adjustedFinding = (uses: (ParsedOption | undefined)[], ctx: SpeculativeContext): Finding | null => {
  const [steps, topk, draft] = uses;
  const s = intOf(steps);
  const d = intOf(draft);
  if (intOf(topk) !== 1 || s === null || d === null || d === s + 1 || draft === undefined) return null;
  if (ctx.engineVersion !== null && compareVersions(ctx.engineVersion, AUTO_SPECULATIVE_SINCE) < 0)
    return null;
  return {
    severity: 'warning',
    code: 'speculative-draft-tokens-adjusted',
    index: draft.valueIndexes[0] ?? draft.index,
    arg: draft.values[0] ?? null,
    message:
      `with --speculative-eagle-topk 1, SGLang replaces --speculative-num-draft-tokens ${String(d)} by ` +
      `--speculative-num-steps + 1 = ${String(s + 1)}; for ${String(d)} draft tokens in a chain, set --speculative-num-steps ${String(d - 1)}`,
    suggestions: [
      `--speculative-num-draft-tokens ${String(s + 1)}`,
      `--speculative-num-steps ${String(d - 1)}`,
    ],
  };
};

// Speculative-decoding findings for an SGLang command (none for vLLM, whose settings are one JSON value).
export const speculativeFindings = (parsed: ArgparseResult, ctx: SpeculativeContext): Finding[] => {
  if (ctx.schema.engine !== 'sglang') return [];
  const algorithm = lastUse(parsed, 'speculative_algorithm');
  if (algorithm === undefined || algorithm.values[0] === undefined) return [];
  const findings: Finding[] = [...algorithmFindings(algorithm, ctx.schema)];
  const draft = draftFinding(algorithm, parsed);
  if (draft !== null) findings.push(draft);
  if (algorithm.values[0] === 'NGRAM') return findings;
  const uses = TRIPLE.map((dest) => lastUse(parsed, dest));
  for (const found of [partialFinding(uses, ctx), adjustedFinding(uses, ctx)])
    if (found !== null) findings.push(found);
  return findings;
};
