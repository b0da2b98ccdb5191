// The finding for an option the schema lacks: why it is unknown (another engine's spelling, `_` for `-`, removed,
// renamed, a typo) and what was meant, best guess first. What is engine-specific comes from the engine's folder.
import type { Finding } from '../../events.ts';
import { FLAG_ENGINES, getEngine } from '../../engines/index.ts';
import { crossEngineMatch, replacedBy } from './aliases.ts';
import { optionLookup, type ArgparseIssue } from '../argparse/parse.ts';
import { describeHistory, describeVersions, ENGINE_LABEL, type NameIndex } from '../schema/history.ts';
import type { FlagSchema } from '../schema/schema.ts';
import { suggestNames } from './suggest.ts';

export interface UnknownContext {
  schema: FlagSchema;
  /** The schema decides alone: a help text, a live --help, or the bundled table of the installed release. */
  authoritative: boolean;
  /** The bundled name→versions index, read only when an option is unknown. */
  names: () => NameIndex;
  /** Index in the command of the first argument the engine parses. */
  argsStart: number;
}

// Names read with a vowel sound first take "an" ("an SGLang option", "a vLLM option").
const VOWEL_SOUND = /^[AEIOaeio]|^S[A-Z]/;

const uniq = (names: readonly string[]): string[] => [...new Set(names)];

// Ranks the schema's visible option strings for a name, deprecated ones losing ties.
const similar = (schema: FlagSchema, name: string): string[] => {
  const visible = schema.options.filter((o) => !o.hidden && o.action !== 'help');
  const demote = new Set(visible.filter((o) => o.deprecated).flatMap((o) => o.strings));
  return suggestNames(
    name,
    visible.flatMap((o) => o.strings),
    { demote },
  ).map((s) => s.name);
};

const strayArgument = (issue: ArgparseIssue, ctx: UnknownContext, label: string): Finding => {
  const arg = issue.arg ?? '';
  const first = issue.index === ctx.argsStart;
  const modelOption = getEngine(ctx.schema.engine).flags?.modelOption;
  const takesModel = modelOption !== undefined && first && !arg.startsWith('-');
  return {
    severity: 'error',
    code: 'unexpected-argument',
    index: issue.index,
    arg,
    message:
      `${label} takes no positional argument here: ${JSON.stringify(arg)}` +
      (takesModel ? `; ${label} names the model with ${modelOption} ${arg}` : '') +
      ` (${label} would stop with: ${issue.message})`,
    suggestions: takesModel ? [modelOption] : [],
  };
};

// Builds the finding for one `unrecognized` issue from parseArgv.
export const unknownOptionFinding = (issue: ArgparseIssue, ctx: UnknownContext): Finding => {
  const { schema } = ctx;
  const engine = schema.engine;
  const label = ENGINE_LABEL[engine];
  const typedToken = issue.arg ?? '';
  if (!typedToken.startsWith('-')) return strayArgument(issue, ctx, label);
  const eq = typedToken.indexOf('=');
  const typed = eq === -1 ? typedToken : typedToken.slice(0, eq);
  const processed = (issue.args?.[0] ?? typed).split('=')[0] ?? typed;
  const value = eq === -1 ? issue.args?.[1] : typedToken.slice(eq + 1);
  const lookup = optionLookup(schema);
  const reasons: string[] = [];
  const suggestions: string[] = [];
  let severity: Finding['severity'] = 'error';
  let code = 'unknown-option';

  const dashed = typed.replace(/_/g, '-');
  if (getEngine(engine).flags?.underscoreDashes !== true && dashed !== typed && lookup.has(dashed)) {
    const readers = FLAG_ENGINES.filter((spec) => spec.flags?.underscoreDashes === true).map(
      (spec) => spec.label,
    );
    reasons.push(
      `${label} does not read _ as - in option names${readers.length === 0 ? '' : ` (${readers.join(', ')} does)`}: write ${dashed}`,
    );
    suggestions.push(dashed);
  }

  const names = ctx.names();
  const own = names[engine];
  const history = own.options[processed];
  if (history !== undefined) {
    reasons.push(describeHistory(engine, history, own.versions));
    const renamed = schema.options.find((o) => o.dest === history.dest && !o.strings.includes(processed));
    if (renamed !== undefined) {
      reasons.push(`its setting is now spelled ${renamed.strings[0] ?? ''}`);
      suggestions.push(renamed.strings[0] ?? '');
    }
    suggestions.push(...replacedBy(engine, processed).filter((name) => lookup.has(name)));
    const hiddenHere = schema.version !== null && history.hidden.includes(schema.version);
    if (hiddenHere || !ctx.authoritative) {
      severity = 'warning';
      code = hiddenHere ? 'hidden-option' : 'version-dependent-option';
    } else if (history.hidden.length > 0 && schema.source.kind !== 'bundled') {
      severity = 'warning';
      code = 'hidden-option';
      reasons.push(`it is hidden from --help in ${label} ${describeVersions(history.hidden, own.versions)}`);
    }
  }

  const match = crossEngineMatch(schema, processed);
  const hint = getEngine(engine).flags?.unknownOptionHint?.({
    option: processed,
    typed,
    value,
    has: (name) => lookup.has(name),
  });
  if (hint !== undefined && hint !== null) {
    reasons.push(...hint.reasons);
    suggestions.push(...hint.suggestions);
  }
  if (hint?.explainsOrigin === true) {
    // The engine's own hint already said whose spelling it is.
  } else if (match !== null) {
    const counterpart = match.suggestions.slice(0, 2).join(' / ');
    const note = match.note === undefined ? '' : ` (${match.note})`;
    reasons.push(
      `it is ${ENGINE_LABEL[match.theirs]}'s option for ${match.pair.purpose}; ${label}'s counterpart is ${counterpart}${note}`,
    );
  } else if (history === undefined) {
    const owner = FLAG_ENGINES.find(
      (spec) => spec.id !== engine && names[spec.id].options[processed] !== undefined,
    );
    const theirs = owner === undefined ? undefined : names[owner.id];
    const record = theirs?.options[processed];
    if (owner !== undefined && theirs !== undefined && record !== undefined) {
      const versions = describeVersions(record.versions, theirs.versions);
      reasons.push(`it is a ${owner.label} option (${owner.label} ${versions})`);
    }
  }
  if (match !== null) suggestions.push(...match.suggestions);
  // String similarity only when no fact above named the option: it is the costly part on a cold start.
  if (suggestions.length === 0) suggestions.push(...similar(schema, processed));

  const where = schema.version === null ? label : `${label} v${schema.version}`;
  const head =
    severity === 'error'
      ? `${typed} is not ${VOWEL_SOUND.test(where) ? 'an' : 'a'} ${where} option`
      : `${typed} is not in the ${schema.source.kind === 'bundled' ? 'bundled ' : ''}${where} table`;
  const tail =
    severity === 'error'
      ? ` (${label} would stop with: ${issue.message})`
      : code === 'hidden-option'
        ? '; the engine accepts it although --help does not list it'
        : `; fine if the installed ${label} is one of those releases (vigil could not read the installed version: pass --help-file or drop --offline to check against it)`;
  return {
    severity,
    code,
    index: issue.index,
    arg: typedToken,
    message: `${head}${reasons.length === 0 ? '' : `: ${reasons.join('; ')}`}${tail}`,
    suggestions: uniq(suggestions.filter((s) => s !== '')),
  };
};
