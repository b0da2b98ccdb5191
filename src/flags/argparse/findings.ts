// Findings for argparse's own rules: what parseArgv reported, plus what argparse accepts silently but a
// launch should not rely on (repeated options, deprecated options, abbreviations).
import type { Finding } from '../../events.ts';
import { crossEngineMatch } from '../checks/aliases.ts';
import { optionLookup, type ArgparseIssue, type ArgparseResult, type ParsedOption } from './parse.ts';
import { ENGINE_LABEL } from '../schema/history.ts';
import type { FlagOption, FlagSchema, Nargs } from '../schema/schema.ts';
import { editSimilarity, suggestNames } from '../checks/suggest.ts';
import { unknownOptionFinding, type UnknownContext } from '../checks/unknown-option.ts';

const describeNargs = (nargs: Nargs): string => {
  if (nargs === null) return 'one value';
  if (nargs === '?') return 'at most one value';
  if (nargs === '+') return 'one or more values';
  if (nargs === '*') return 'any number of values';
  return `${String(nargs)} value${nargs === 1 ? '' : 's'}`;
};

const first = (option: FlagOption | null): string => option?.strings[0] ?? '';

const FALSE_WORDS = /^(false|0|no|off)$/i;

const issueFinding = (issue: ArgparseIssue, ctx: UnknownContext): Finding => {
  const label = ENGINE_LABEL[ctx.schema.engine];
  const base = { index: issue.index, arg: issue.arg };
  switch (issue.kind) {
    case 'unrecognized':
      return unknownOptionFinding(issue, ctx);
    case 'ambiguous': {
      const typed = (issue.arg ?? '').split('=')[0] ?? '';
      const match = crossEngineMatch(ctx.schema, typed);
      const counterparts = match?.suggestions.filter((s) => issue.candidates.includes(s)) ?? [];
      const theirs = match === null ? '' : ENGINE_LABEL[match.theirs];
      const cross =
        counterparts[0] === undefined || match === null
          ? ''
          : `; ${typed} is ${theirs}'s option for ${match.pair.purpose}, ${label}'s is ${counterparts[0]}`;
      // Aliases of one option count once, under the option's first spelling; the closest options first.
      const lookup = optionLookup(ctx.schema);
      const options = new Map<string, number>();
      for (const candidate of issue.candidates) {
        const primary = lookup.get(candidate)?.strings[0] ?? candidate;
        options.set(primary, Math.max(options.get(primary) ?? 0, editSimilarity(typed, candidate)));
      }
      const ranked = [...options].sort((a, b) => b[1] - a[1]).map(([name]) => name);
      return {
        ...base,
        severity: 'error',
        code: 'ambiguous-option',
        message: `${typed} abbreviates ${String(options.size)} ${label} options; spell the option out${cross} (${issue.message})`,
        suggestions: [...new Set([...counterparts, ...ranked])].slice(0, 3),
      };
    }
    case 'expected-value':
      return {
        ...base,
        severity: 'error',
        code: 'missing-value',
        message: `${first(issue.option) || (issue.arg ?? '')} needs ${describeNargs(issue.option?.nargs ?? null)} (${issue.message})`,
        suggestions: [],
      };
    case 'unexpected-value': {
      const option = issue.option;
      const negative = option?.strings.find((s) => s.startsWith('--no-'));
      const suggestion =
        negative !== undefined && FALSE_WORDS.test(issue.value ?? '') ? negative : first(option);
      return {
        ...base,
        severity: 'error',
        code: 'unexpected-value',
        message: `${first(option)} is a switch and takes no value; write ${suggestion} alone (${issue.message})`,
        suggestions: [suggestion],
      };
    }
    case 'invalid-choice': {
      const choices = issue.option?.choices ?? [];
      const value = issue.value ?? '';
      const caseMatch = choices.filter((c) => c.toLowerCase() === value.toLowerCase());
      const near = suggestNames(value, choices).map((s) => s.name);
      return {
        ...base,
        severity: 'error',
        code: 'invalid-choice',
        message: issue.message,
        suggestions: [...new Set([...caseMatch, ...near])],
      };
    }
    case 'invalid-value':
      return { ...base, severity: 'error', code: 'invalid-value', message: issue.message, suggestions: [] };
    case 'required-missing': {
      const missing = ctx.schema.options.filter((o) => o.required).map(first);
      return {
        ...base,
        severity: 'error',
        code: 'missing-required',
        message: `${label} requires ${missing.join(', ') || 'an argument'} (${issue.message})`,
        suggestions: missing,
      };
    }
  }
};

// Findings for every issue parseArgv reported.
export const argparseFindings = (parsed: ArgparseResult, ctx: UnknownContext): Finding[] => {
  const findings = parsed.issues.map((issue) => issueFinding(issue, ctx));
  if (parsed.helpIndex !== null) {
    findings.push({
      severity: 'warning',
      code: 'help-requested',
      index: parsed.helpIndex,
      arg: '--help',
      message: 'the server would print its help and exit instead of starting',
      suggestions: [],
    });
  }
  return findings;
};

const repeatFinding = (occurrences: ParsedOption[], schema: FlagSchema): Finding | null => {
  const [firstUse, ...rest] = occurrences;
  const last = occurrences.at(-1);
  if (firstUse === undefined || last === undefined || rest.length === 0) return null;
  const option = firstUse.option;
  if (option.action === 'append' || option.action.includes('LoRA') || option.action === 'help') return null;
  const sameValues = occurrences.every((o) => JSON.stringify(o.values) === JSON.stringify(firstUse.values));
  const kept = option.nargs === 0 ? last.resolved : `${last.resolved} ${last.values.join(' ')}`;
  return {
    severity: 'warning',
    code: 'repeated-option',
    index: last.index,
    arg: last.typed,
    message:
      `${option.strings[0] ?? ''} is given ${String(occurrences.length)} times` +
      (sameValues ? '' : `; ${ENGINE_LABEL[schema.engine]} keeps only the last: ${kept}`),
    suggestions: [],
  };
};

// An abbreviation argparse accepts; a warning when the typed name is the other engine's option for
// something else (SGLang's --ep is expert parallelism, vLLM reads --ep as --eplb-config).
const abbreviationFinding = (use: ParsedOption, schema: FlagSchema): Finding => {
  const match = crossEngineMatch(schema, use.typed);
  if (match !== null && !match.suggestions.includes(use.resolved)) {
    const theirs = ENGINE_LABEL[match.theirs];
    return {
      severity: 'warning',
      code: 'abbreviated-option',
      index: use.index,
      arg: use.typed,
      message: `${use.typed} is read as ${use.resolved}, but ${use.typed} is ${theirs}'s option for ${match.pair.purpose}; ${ENGINE_LABEL[schema.engine]}'s is ${match.suggestions[0] ?? ''}`,
      suggestions: match.suggestions,
    };
  }
  return {
    severity: 'info',
    code: 'abbreviated-option',
    index: use.index,
    arg: use.typed,
    message: `${use.typed} is read as ${use.resolved}; a later release with another option starting the same way would reject it as ambiguous`,
    suggestions: [use.resolved],
  };
};

// Repeated, deprecated and abbreviated options: accepted by argparse, worth a word before launch.
export const usageFindings = (parsed: ArgparseResult, schema: FlagSchema): Finding[] => {
  const findings: Finding[] = [];
  const byOption = new Map<FlagOption, ParsedOption[]>();
  for (const use of parsed.options) {
    byOption.set(use.option, [...(byOption.get(use.option) ?? []), use]);
    if (use.option.deprecated) {
      const reason = use.option.deprecatedReason ?? use.option.help ?? '';
      findings.push({
        severity: 'warning',
        code: 'deprecated-option',
        index: use.index,
        arg: use.typed,
        message: `${use.resolved} is deprecated in ${ENGINE_LABEL[schema.engine]}${schema.version === null ? '' : ` v${schema.version}`}${reason === '' ? '' : `: ${reason}`}`,
        suggestions: [...(reason.match(/--[a-z0-9][a-z0-9-]*/g) ?? [])]
          .filter((s) => s !== use.resolved)
          .slice(0, 3),
      });
    }
    if (use.matchedBy === 'prefix' && use.typed.startsWith('--'))
      findings.push(abbreviationFinding(use, schema));
  }
  for (const occurrences of byOption.values()) {
    const finding = repeatFinding(occurrences, schema);
    if (finding !== null) findings.push(finding);
  }
  return findings;
};
