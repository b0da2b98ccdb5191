// Decides, without normalising a line, that no rule of an engine can act on it: the tracker's fast path. A line
// holding none of the literals the engine's rules, level prefixes and error shapes need is quiet; so is one whose
// only literals belong to phases the start can no longer enter, or to special lines (heartbeats, the ready line,
// probe triggers) whose pattern does not match it.
import type { PhaseId } from '../events.ts';
import type { EngineSpec } from '../engines/types.ts';
import { LEVEL_LITERALS } from '../logs/prefixes.ts';
import { EXCEPTION_MODULES } from './exception-modules.ts';
import { requiredLiterals } from './literals.ts';
import { minimizeNeedles, needleRegExp } from './needles.ts';

// Every line the tracker's isErrorLine accepts holds one of these.
export const ERROR_LINE_LITERALS: readonly string[] = [
  'Error',
  'Exception',
  ...EXCEPTION_MODULES.map((module) => `${module}.`),
  'Traceback (most recent call last)',
  ': error: ',
];
// What normalisation changes before matching (ANSI codes, `\r` redraws) and progress bars: always the full way.
const RAW_MARKERS = ['\u001b', '\u009b', '\r', '%'];
// A colour code whose ESC byte a paste dropped, at a line's start (normalisation removes it, and a process tag's after
// it): always the full way.
const BARE_COLOUR_AT_START = /^\[\d{1,3}(?:;\d{1,3})*m/;

/** What a literal's presence can mean. */
interface Role {
  /** The line must take the full way (level or error markers, raw markers, patterns not testable on raw text). */
  always: boolean;
  /** Special patterns (heartbeat, ready, probe) to test on the raw line. */
  specials: Set<RegExp>;
  /** Phases whose rules need this literal. */
  phases: Set<PhaseId>;
}

// True when no rule can act on the line, given which phases the start can still enter.
export type QuietCheck = (text: string, canEnter: (phase: PhaseId) => boolean) => boolean;

// A pattern gives the same answer on the raw line as on its message when it has no anchors or lookarounds: the
// message is a substring of the line, and every prefix ends in a non-word character (so `\b` agrees).
const testableOnRaw = (pattern: RegExp): boolean =>
  !/[\^$]|\(\?<?[=!]/.test(pattern.source.replace(/\\./g, '')) && !pattern.flags.includes('m');

const checks = new WeakMap<EngineSpec, QuietCheck | null>();

// Builds (once per engine) the quiet check; null when some rule needs no literal, so every line goes the full way.
export const quietCheckFor = (engine: EngineSpec): QuietCheck | null => {
  const cached = checks.get(engine);
  if (cached !== undefined) return cached;
  const sources: { literal: string; role: Role }[] = [];
  const add = (literals: readonly string[] | null, role: Partial<Role>): boolean => {
    if (literals === null) return false;
    for (const literal of literals)
      sources.push({
        literal,
        role: {
          always: role.always ?? false,
          specials: role.specials ?? new Set(),
          phases: role.phases ?? new Set(),
        },
      });
    return true;
  };
  add([...RAW_MARKERS, ...LEVEL_LITERALS, ...ERROR_LINE_LITERALS], { always: true });
  const specials = [
    ...engine.heartbeatLines,
    ...(engine.readyLine === null ? [] : [engine.readyLine]),
    ...engine.probeTriggers,
  ];
  let complete = true;
  for (const pattern of specials) {
    const role = testableOnRaw(pattern) ? { specials: new Set([pattern]) } : { always: true };
    complete = add(requiredLiterals(pattern), role) && complete;
  }
  for (const rule of engine.phaseRules)
    complete = add(requiredLiterals(rule.pattern), { phases: new Set([rule.phase]) }) && complete;
  const check = complete ? buildCheck(sources) : null;
  checks.set(engine, check);
  return check;
};

const buildCheck = (sources: readonly { literal: string; role: Role }[]): QuietCheck => {
  const needles = minimizeNeedles(sources.map((source) => source.literal));
  // A kept needle stands for every literal that contains it: its role is theirs combined.
  const roles = new Map<string, Role>();
  for (const needle of needles) {
    const role: Role = { always: false, specials: new Set(), phases: new Set() };
    for (const source of sources) {
      if (!source.literal.includes(needle)) continue;
      role.always ||= source.role.always;
      for (const pattern of source.role.specials) role.specials.add(pattern);
      for (const phase of source.role.phases) role.phases.add(phase);
    }
    roles.set(needle, role);
  }
  // Two searches: the markers that always need the full way, then the rules' literals. (V8 runs two small
  // alternations faster than one large one.)
  const kept = [...roles];
  const always = needleRegExp(kept.filter(([, role]) => role.always).map(([needle]) => needle));
  const ruled = kept.filter(([, role]) => !role.always).map(([needle]) => needle);
  const each = ruled.length === 0 ? null : new RegExp(needleRegExp(ruled).source, 'g');
  return (text, canEnter) => {
    if (always.test(text) || BARE_COLOUR_AT_START.test(text)) return false;
    if (each === null) return true;
    // Every needle occurrence: no two needles start at one place (the shorter would be a prefix of the longer,
    // which minimizeNeedles drops), so stepping one character past each match finds them all. Most lines hold
    // none, and the first search says so.
    let specials: RegExp[] | null = null;
    each.lastIndex = 0;
    for (let match = each.exec(text); match !== null; match = each.exec(text)) {
      each.lastIndex = match.index + 1;
      const role = roles.get(match[0]);
      if (role === undefined) return false;
      for (const phase of role.phases) if (canEnter(phase)) return false;
      for (const pattern of role.specials) (specials ??= []).push(pattern);
    }
    return specials === null || !specials.some((pattern) => pattern.test(text));
  };
};
