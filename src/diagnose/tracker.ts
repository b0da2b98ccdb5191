// Follows one start's log line by line: phases with their first line and duration, progress bars, the ready line.
// Phases are keyed off rank 0 (and untagged main-process lines); other ranks never move the phase.
import type { PhaseId } from '../events.ts';
import type { EngineSpec, PhaseRule } from '../engines/types.ts';
import { normalizeLine, type LinePiece, type NormalizedLine } from '../logs/normalize.ts';
import { mayBeOnlyPrefixes, stripPrefixes } from '../logs/prefixes.ts';
import type { RawLine } from '../logs/types.ts';
import { AFTER_EXCEPTION_MODULE, EXCEPTION_CLASS } from './exception-modules.ts';
import { topLevelAlternatives } from './literals.ts';
import { quietCheckFor } from './quiet-lines.ts';
import type { StartTracker, TrackLineResult, TrackerUpdate } from './types.ts';

/** Where a phase began: the file line and the arrival time. */
export interface PhaseMark {
  name: PhaseId;
  line: number;
  /** The normalised text of the line that began it. */
  text: string;
  at: number;
}

/** The tracker vigil builds: the shared contract plus the phase marks the diagnoser quotes. */
export interface LogStartTracker extends StartTracker {
  /** Phases of the current start in order, each with the line that began it. */
  phaseMarks(): readonly PhaseMark[];
  /** The engine's first phase (a start's opening lines). */
  readonly firstPhase: PhaseId | null;
  /** The last progress-bar line of the current phase, if any. */
  readonly lastBarLine: { line: number; text: string } | null;
  /** Every phase's duration, the current one counted up to `now` (what a successful start stores for the ETA). */
  durationsUntil(now: number): { name: PhaseId; ms: number }[];
  /** `push` for a line the caller already normalised (the diagnoser feeds several trackers one normalisation). */
  track(raw: RawLine, normalized: NormalizedLine, now: number): TrackLineResult;
  /** Tells of a failure at `line`: the first phase's own line again after it, in the first phase, is a new start. */
  noteFailure(line: number): void;
}

const EXCEPTION_START = new RegExp(
  String.raw`^(?:[\w.]+\.)?(?:${EXCEPTION_CLASS}\b|${AFTER_EXCEPTION_MODULE}[A-Z]\w*)(?::|$)|^Traceback \(most recent call last\)`,
);
// An exception's last line or an argparse error: worth showing the user (each holds one of ERROR_LINE_LITERALS).
const isErrorLine = (text: string): boolean => EXCEPTION_START.test(text) || text.includes(': error: ');
const NO_UPDATES = Object.freeze([]) as unknown as TrackerUpdate[];

// A line no rule can match: no updates, progress unless it is blank; its normalised text (for "last line"
// displays) is worked out only when read.
class QuietLine implements TrackLineResult {
  /** Shared by every quiet line, and frozen: a quiet line has no updates. */
  readonly updates = NO_UPDATES;
  private text: string | null;
  private shown = '';
  constructor(
    raw: string,
    readonly progress: boolean,
  ) {
    this.text = raw;
  }
  get normalized(): string {
    if (this.text !== null) {
      this.shown = normalizeLine(this.text).text;
      this.text = null;
    }
    return this.shown;
  }
}

// Whether a line without ANSI codes, redraws or bars holds a message: blank lines and bare wrapper prefixes do not.
const carriesMessage = (text: string): boolean =>
  text !== '' && (!mayBeOnlyPrefixes(text) || stripPrefixes(text).text.trim() !== '');

const isRankZero = (piece: LinePiece): boolean => piece.rank === null || piece.rank === 0;

// Builds each phase's position in the engine's own order (the first rule naming it).
const orderOf = (rules: readonly PhaseRule[]): Map<PhaseId, number> => {
  const order = new Map<PhaseId, number>();
  for (const rule of rules) if (!order.has(rule.phase)) order.set(rule.phase, order.size);
  return order;
};

// The literal first character of each alternative of an anchored pattern (`^Load|^KV` → L, K); null when a
// pattern is not a set of anchored literals, so it is always tried.
const firstCharsOf = (pattern: RegExp): string[] | null => {
  const chars: string[] = [];
  for (const alternative of topLevelAlternatives(pattern.source)) {
    const match = /^\^(\\?)(.)/.exec(alternative);
    if (match === null) return null;
    const char = match[2] ?? '';
    if (match[1] === '\\' ? /[A-Za-z0-9]/.test(char) : '([.'.includes(char)) return null;
    chars.push(char);
  }
  return chars;
};

// Rules by the first character of the text they can match; rules without one are tried for every line.
const indexRules = (rules: readonly PhaseRule[]): ((text: string) => readonly PhaseRule[]) => {
  const byChar = new Map<string, PhaseRule[]>();
  const always: PhaseRule[] = [];
  for (const rule of rules) {
    const chars = firstCharsOf(rule.pattern);
    if (chars === null) always.push(rule);
    else for (const char of new Set(chars)) byChar.set(char, [...(byChar.get(char) ?? []), rule]);
  }
  const merged = new Map<string, PhaseRule[]>();
  for (const [char, list] of byChar)
    merged.set(
      char,
      rules.filter((rule) => list.includes(rule) || always.includes(rule)),
    );
  return (text) => merged.get(text.charAt(0)) ?? always;
};

// What trackers and phase readers work out from an engine's rules alone, once per engine: a process diagnosing many
// logs creates them for every log (building them each time was about a tenth of a corpus diagnosis's CPU).
interface RulesIndex {
  order: Map<PhaseId, number>;
  candidates: (text: string) => readonly PhaseRule[];
  /** A phase reader's: without the rules of lines printed on import. */
  readerCandidates: (text: string) => readonly PhaseRule[];
  /** Heartbeats, the ready line and probe triggers in one test: most lines match none of them. */
  anySpecial: RegExp | null;
}
const rulesIndexes = new WeakMap<EngineSpec, RulesIndex>();

const rulesIndexOf = (engine: EngineSpec): RulesIndex => {
  let index = rulesIndexes.get(engine);
  if (index !== undefined) return index;
  const special = [
    ...engine.heartbeatLines,
    ...(engine.readyLine === null ? [] : [engine.readyLine]),
    ...engine.probeTriggers,
  ];
  index = {
    order: orderOf(engine.phaseRules),
    candidates: indexRules(engine.phaseRules),
    readerCandidates: indexRules(engine.phaseRules.filter((rule) => rule.printedOnImport !== true)),
    anySpecial:
      special.length === 0 ? null : new RegExp(special.map((pattern) => `(?:${pattern.source})`).join('|')),
  };
  rulesIndexes.set(engine, index);
  return index;
};

// The first rule a message matches: rules with progress for a bar's label, the others for a plain message.
const matchPhaseRule = (
  candidates: (text: string) => readonly PhaseRule[],
  text: string,
  withBar: boolean,
): { rule: PhaseRule; match: RegExpExecArray } | null => {
  for (const rule of candidates(text)) {
    if ((rule.progress !== undefined) !== withBar) continue;
    const match = rule.pattern.exec(text);
    if (match !== null) return { rule, match };
  }
  return null;
};

/** Reads which phase a single line would begin for one engine (rank 0 only), without any state. */
export interface PhaseReader {
  /** The engine's first phase: seeing it again after a later one means the server started again. */
  readonly first: PhaseId | null;
  phaseOf(normalized: NormalizedLine): PhaseId | null;
}

// Creates a phase reader: how a start's first line is told from the lines after it when a log is read backwards.
export const createPhaseReader = (engine: EngineSpec): PhaseReader => {
  const candidates = rulesIndexOf(engine).readerCandidates;
  return {
    first: engine.phaseRules[0]?.phase ?? null,
    phaseOf(normalized) {
      for (const piece of normalized.pieces) {
        if (!isRankZero(piece) || piece.text.trim() === '') continue;
        const hit = matchPhaseRule(candidates, piece.text, piece.bar !== null);
        if (hit !== null) return hit.rule.phase;
      }
      return null;
    },
  };
};

// Creates a tracker for one engine's log.
export const createStartTracker = (engine: EngineSpec): LogStartTracker => {
  const rules = engine.phaseRules;
  const quiet = quietCheckFor(engine);
  const { order, candidates, anySpecial } = rulesIndexOf(engine);
  const firstPhase = rules[0]?.phase ?? null;
  let marks: PhaseMark[] = [];
  let phase: PhaseId | null = null;
  // A failure after the last mark: a start that failed in its first phase, relaunched into the same log, shows only
  // that phase's line again.
  let failedSinceMark = false;
  let progress: { done: number; total: number } | null = null;
  let lastBarLine: { line: number; text: string } | null = null;
  // Last count per bar label, so a redraw that did not advance is not progress (bounded: bars are few).
  const barCounts = new Map<string, number>();

  const enter = (next: PhaseId, line: number, text: string, now: number, updates: TrackerUpdate[]): void => {
    const current = marks.at(-1);
    const restart = next === firstPhase && current !== undefined && (next !== phase || failedSinceMark);
    if (restart) marks = [];
    failedSinceMark = false;
    const previous =
      restart || current === undefined ? null : { name: current.name, ms: Math.max(0, now - current.at) };
    marks.push({ name: next, line, text, at: now });
    phase = next;
    progress = null;
    lastBarLine = null;
    updates.push({ kind: 'phase', phase: next, progress: null, previous });
    updates.push({ kind: 'notable', level: 'info', text });
  };

  // A later phase in the engine's order moves forward; the first phase again means the server restarted.
  const accepts = (next: PhaseId): boolean => {
    if (phase === null) return true;
    if (next === phase) return false;
    if (next === firstPhase) return true;
    return (order.get(next) ?? -1) > (order.get(phase) ?? -1);
  };

  const matchRule = (text: string, withBar: boolean) => matchPhaseRule(candidates, text, withBar);

  const trackBar = (piece: LinePiece, line: number, now: number, updates: TrackerUpdate[]): boolean => {
    const bar = piece.bar;
    if (bar === null) return false;
    const key = bar.label;
    const advanced = barCounts.get(key) !== bar.done;
    if (advanced && (barCounts.size < 64 || barCounts.has(key))) barCounts.set(key, bar.done);
    if (!isRankZero(piece)) return advanced;
    const hit = matchRule(piece.text, true);
    let target = hit === null ? phase : hit.rule.phase;
    // A bar of an earlier phase (e.g. the draft capture reusing the capture bar) counts for the current phase.
    if (target !== null && phase !== null && target !== phase && !accepts(target)) target = phase;
    if (target === null) return advanced;
    if (target !== phase) enter(target, line, piece.text, now, updates);
    const counts = { done: bar.done, total: bar.total };
    lastBarLine = { line, text: piece.text };
    if (progress?.done !== counts.done || progress.total !== counts.total) {
      progress = counts;
      const last = updates.at(-2);
      if (last?.kind === 'phase' && last.phase === target) last.progress = counts;
      else updates.push({ kind: 'progress', phase: target, progress: counts });
      return true;
    }
    return advanced;
  };

  const tracker: LogStartTracker = {
    get phase() {
      return phase;
    },
    get progress() {
      return progress;
    },
    get lastBarLine() {
      return lastBarLine;
    },
    push(raw, now): TrackLineResult {
      // Most lines match no rule: literal tests say so without normalising them.
      if (quiet?.(raw.text, accepts) === true) return new QuietLine(raw.text, carriesMessage(raw.text));
      return tracker.track(raw, normalizeLine(raw.text), now);
    },
    track(raw, normalized, now): TrackLineResult {
      const updates: TrackerUpdate[] = [];
      // Blank lines, heartbeats and bar redraws that did not advance are not progress.
      let moved = false;
      for (const piece of normalized.pieces) {
        if (piece.bar !== null) {
          moved = trackBar(piece, raw.line, now, updates) || moved;
          continue;
        }
        const text = piece.text;
        if (text.trim() === '') continue;
        const maybeSpecial = anySpecial?.test(text) === true;
        if (maybeSpecial && engine.heartbeatLines.some((pattern) => pattern.test(text))) continue;
        moved = true;
        if (maybeSpecial && engine.readyLine?.test(text) === true) updates.push({ kind: 'ready-line' });
        if (maybeSpecial && engine.probeTriggers.some((pattern) => pattern.test(text)))
          updates.push({ kind: 'probe-trigger' });
        if (isRankZero(piece)) {
          const hit = matchRule(text, false);
          // Not a line every process prints on import: a later process of the same start prints it too.
          const again =
            failedSinceMark && hit?.rule.phase === firstPhase && hit.rule.printedOnImport !== true;
          if (hit !== null && (again || accepts(hit.rule.phase))) {
            enter(hit.rule.phase, raw.line, text, now, updates);
            continue;
          }
        }
        if (piece.level === 'error' || isErrorLine(text)) {
          if (!text.startsWith(' ') && !text.startsWith('File "'))
            updates.push({ kind: 'notable', level: 'error', text });
        } else if (piece.level === 'warning') updates.push({ kind: 'notable', level: 'warning', text });
      }
      return { updates, progress: moved, normalized: normalized.text };
    },
    phaseDurations(now) {
      return marks
        .map((mark, i) => ({ name: mark.name, ms: Math.max(0, (marks[i + 1]?.at ?? now) - mark.at) }))
        .slice(0, -1);
    },
    durationsUntil(now) {
      return marks.map((mark, i) => ({
        name: mark.name,
        ms: Math.max(0, (marks[i + 1]?.at ?? now) - mark.at),
      }));
    },
    phaseMarks: () => marks,
    firstPhase,
    noteFailure(line) {
      const last = marks.at(-1);
      if (last !== undefined && phase === firstPhase && line > last.line) failedSinceMark = true;
    },
  };
  return tracker;
};
