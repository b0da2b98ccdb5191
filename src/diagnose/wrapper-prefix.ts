// A wrapper's line prefix that no rule in src/logs/prefixes.ts knows (a job runner's `worker-3[1042]: `, a log
// shipper's `app=vllm pod=x | `), learned from the log itself: where the same unknown text (its digits aside) stands
// before a known prefix that names a level or a rank or is a stamp of a dozen characters or more, before a traceback's
// header or frames, or before a JSON record, on three lines, it is a wrapper's prefix, and it is taken off every line
// that starts with it. Only the first 2,000 lines it is given to learn from are looked at (a wrapper prefixes every
// line), and none once the diagnoser stops it.
// Written by hand: the prefix shapes are open-ended, so only the log can say what its wrapper prints.
import { stripAnsi } from '../logs/normalize.ts';
import { stripPrefixes } from '../logs/prefixes.ts';

/** Lines that must show the same unknown prefix before it is taken as a wrapper's. */
const LEARN_AFTER = 3;
/** A wrapper's prefix is short; an engine prefix further in is a message quoting a log line. */
const MAX_PREFIX = 80;
/** Lines looked at for a prefix before giving up: a wrapper prefixes every line, from the first. */
const MAX_OBSERVED = 2000;
/** Distinct wrappers (a supervisor's prefix and a container's) a log may mix. */
const MAX_LEARNED = 3;

// Lines only a program's own output starts with: a Python traceback's header and frames, a JSON log record.
const OWN_LINE_START =
  /^(?:Traceback \(most recent call last\):|File "[^"]+", line \d+|\{"(?:timestamp|time|level)":)/;

const CONTAINER_NAME = /^[a-z0-9][\w.-]*(?:@[\w.-]+)?\s*\| /;

// Three words in lower case in a row: a message's words, not a wrapper's tag.
const SENTENCE = /\b[a-z]+ [a-z]+ [a-z]+\b/;

// Where an engine's (or a known wrapper's) own line starts after `text`'s first characters, if it does.
const knownStartAfter = (text: string): number => {
  const limit = Math.min(text.length - 1, MAX_PREFIX);
  for (let at = 1; at <= limit; at++) {
    const before = text.charCodeAt(at - 1);
    // Only after a separator: a space, a tab, `:`, `|` or `]`.
    if (before !== 32 && before !== 9 && before !== 58 && before !== 124 && before !== 93) continue;
    // Nor where a word in lower case follows, but for a container's name (docker compose's `sglang_serving_0  | `):
    // no engine's own line, nor another prefix it is read with, starts so.
    const next = text.charCodeAt(at);
    if (next === 32) continue;
    const rest = text.slice(at);
    if (next >= 97 && next <= 122 && !CONTAINER_NAME.test(rest)) continue;
    if (OWN_LINE_START.test(rest)) return at;
    const stripped = stripPrefixes(rest);
    const taken = rest.length - stripped.text.length;
    if (taken > 0 && (stripped.level !== null || stripped.rank !== null || taken >= 12)) return at;
  }
  return -1;
};

// The prefix's shape: its text with every run of digits (pids, ranks, times) and of spaces (padding to a width) open,
// and one separating space or tab at most taken with it (what follows may be indented: a traceback's frames).
const shapeOf = (prefix: string): string =>
  `${prefix
    .trimEnd()
    .split(/\d+/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ +/g, ' *'))
    .join('\\d+')}[ \t]?`;

export interface WrapperPrefix {
  /** The line without the learned prefix, or the line itself when none applies; `observe: false` learns nothing from
   * it (a line read again). */
  strip(text: string, observe?: boolean): string;
  /** Whether the last line stripped showed a prefix counted toward learning, but not yet learned. */
  counted(): boolean;
  /** How many prefixes it has learned. */
  learnedCount(): number;
  /** Whether it still looks at lines to learn from (a log file's search then passes every line on). */
  learning(): boolean;
  /** Learns from no more lines (the diagnoser's: once the start got through); what it learned it keeps taking off. */
  stop(): void;
}

export const createWrapperPrefix = (): WrapperPrefix => {
  const counts = new Map<string, number>();
  const learned: RegExp[] = [];
  let observed = 0;
  let stopped = false;
  let lastCounted = false;

  const observe = (rest: string): void => {
    observed += 1;
    if (rest.length < 8) return;
    const at = knownStartAfter(rest);
    // An indent is no wrapper's prefix (a traceback's frames are indented), nor is a bare number (a message may start
    // with one) unless a tab follows it (`cat -n`'s line numbers), nor are words of a message that a traceback follows
    // on its line (`Scheduler hit an exception: …`).
    const prefix = at < 0 ? '' : rest.slice(0, at).trim();
    const numbered = /^ *\d+\t\s*$/.test(rest.slice(0, at));
    if ((!numbered && !/[^\d\s]/.test(prefix)) || SENTENCE.test(prefix)) return;
    const shape = shapeOf(rest.slice(0, at));
    const count = (counts.get(shape) ?? 0) + 1;
    counts.set(shape, count);
    lastCounted = count < LEARN_AFTER;
    if (count >= LEARN_AFTER) {
      learned.push(new RegExp(`^${shape}`));
      counts.clear();
    }
  };

  const learning = (): boolean => !stopped && learned.length < MAX_LEARNED && observed < MAX_OBSERVED;

  return {
    learning,
    counted: () => lastCounted,
    learnedCount: () => learned.length,
    stop() {
      stopped = true;
    },
    strip(text, shouldObserve = true) {
      lastCounted = false;
      // Nothing learned and nothing more to learn from: the line is read as it is, at no cost.
      if (learned.length === 0 && !learning()) return text;
      const plain = stripAnsi(text);
      // The unknown prefix may come after known ones (`[server] ` outside it): it is looked for where they end.
      const rest = stripPrefixes(plain).text;
      const head = plain.slice(0, plain.length - rest.length);
      const unwrap = (): string | undefined => {
        for (const prefix of learned) {
          const match = prefix.exec(rest);
          if (match !== null) return head + rest.slice(match[0].length);
        }
        return undefined;
      };
      const known = unwrap();
      if (known !== undefined) return known;
      if (shouldObserve && learning()) observe(rest);
      return unwrap() ?? text;
    },
  };
};
