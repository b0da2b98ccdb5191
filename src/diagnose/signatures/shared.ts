// What several groups of failure signatures share: signal names, a shell's word that it killed a child, the verbs of
// a remedy, a traceback's header.
import { engineOfFrame, NAMED_ENGINES } from '../../engines/index.ts';
import { escapeRegExp } from '../../regexp.ts';
import { signalName } from '../signals.ts';

// Whether a Python module is an engine's own, pure-Python one (not `vllm._C`), named below a frame of that engine's code.
export const ownModuleOfEngine = (module: string | undefined, frame: string | undefined): boolean => {
  if (module === undefined || frame === undefined) return false;
  const parts = module.split('.');
  const root = `${parts[0] ?? ''}/`;
  if (parts.length < 2 || (parts.at(-1) ?? '').startsWith('_') || !frame.startsWith(root)) return false;
  return engineOfFrame(root) !== null;
};

export const named = (signal: number | undefined): string =>
  signal === undefined ? 'a signal' : `${signalName(signal) ?? `signal ${signal}`} (signal ${signal})`;

// The signal behind each way a native crash is worded, by the wording's first word.
export const CRASH_SIGNALS: Readonly<Record<string, number>> = {
  Segmentation: 11,
  Segfault: 11,
  Bus: 7,
  Illegal: 4,
  Aborted: 6,
  Quit: 3,
  Floating: 8,
};
// glibc's zh_CN names of the signals that end a process, as a shell prints them for a child they killed.
export const TRANSLATED_SIGNALS: Readonly<Record<string, number>> = {
  段错误: 11,
  总线错误: 7,
  非法指令: 4,
  已放弃: 6,
  浮点数例外: 8,
  已杀死: 9,
};
// Such a report. Searched for in a file like any needle, but kept out of the per-line prefilter, a regular expression
// that non-ASCII text slows down (V8's lookahead folds bytes above 127 onto common letters): the diagnoser tests it on
// every line it is given instead.
export const TRANSLATED_SIGNAL_NAMES = Object.keys(TRANSLATED_SIGNALS);
export const TRANSLATED_SIGNAL_REPORT = new RegExp(
  String.raw`(?<![\u4e00-\u9fff])(${TRANSLATED_SIGNAL_NAMES.join('|')})(?![\u4e00-\u9fff])`,
);

// A shell's report of a killed child: `Killed`, `1234 Killed  python3 -m ...`, or `Killed <server command>`
// (the server names come from the engines' hints, which are literals: escaped, as `(` or `.` may be in one).
export const HINT_WORDS = NAMED_ENGINES.flatMap((engine) => engine.hintNeedles)
  .map(escapeRegExp)
  .join('|');
export const SHELL_KILLED = new RegExp(
  String.raw`^Killed\b|\bKilled\s+(?:\S*(?:python|${HINT_WORDS})\S*)|\s\d+ Killed\s|Out of memory: Killed process`,
);

// The verbs of a message that tells the user what to change (`Pass --x`, `disable --y`), for remedy-names-option.
export const REMEDY_VERB = String.raw`(?:[Pp]ass|[Ss]et|[Uu]se|[Dd]isable|[Ee]nable|[Rr]emove|[Ss]pecify|[Ii]ncrease|[Dd]ecrease|[Ll]ower|[Rr]educe|[Aa]dd|[Tt]ry)`;
export const FIRST_REMEDY_OPTION = new RegExp(String.raw`\b${REMEDY_VERB}\D*?(--[a-z][\w-]*)`);

// A traceback's header at the end of a line: a traceback starts there (a wrapper's `…: Traceback (most recent call
// last):` too).
export const TRACEBACK_HEADER = /Traceback \(most recent call last\):?$/;
