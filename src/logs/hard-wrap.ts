// A log copied from a terminal window or a fixed-width viewer holds each long line broken into pieces of the window's
// width. The width shows itself: no line is longer, several different lines are exactly that long, and the line after
// each does not begin a record of its own. Written by hand: no library undoes a terminal's wrap.
import { stripAnsi } from './normalize.ts';

/** A window narrower than this is not looked for: short lines of equal length are common in any log. */
const MIN_WIDTH = 60;
/** Wider than this is not a window: lines that long are a log's own. */
const MAX_WIDTH = 400;
/** At least this many different lines (numbers aside: a repeated message is one) end at the width, with a piece after
 * them, before the log counts as wrapped. */
const MIN_WRAPPED = 2;

// Where a log record or a line of its own begins: an indent (a traceback's frames and source lines), a date or time,
// glog's level and date (`E0603 20:16:59.104586`), a level word, a bracketed stamp or tag, a process tag, NCCL's
// `host:pid:tid [rank]`, a compose service's `name  | `, a traceback's headers and frames (also a paste's unindented
// ones, and a C++ stack's `frame #3: `), an exception's name, or a box's side. The piece after a wrapped line begins
// mid-record, so it is none of these.
const RECORD_START =
  /^(?:\s|$|\d{4}-\d{2}-\d{2}|\d{2}[-/:]\d{2}[-/:]\d{2}|[IWEF]\d{4} \d{2}:|[A-Z][a-z]{2} [ \d]\d |(?:DEBUG|INFO|WARN(?:ING)?|ERROR|CRITICAL|FATAL|TRACE)\b|\[|\([\w.: -]{1,40}? pid=\d+|[\w.-]+:\d+:\d+ \[\d+\]|[\w.-]+ +\| |Traceback \(|During handling|The above exception|File "|frame #\d+: |[\w.]+(?:Error|Exception|Warning)\b|[│┃║|╭╰┌└])/;
// Lines that fill the window by design, which a wrap did not break: a progress bar sized to the terminal (its bar, or
// its rate last), a line padded with spaces, a box's right side.
const FILLS_WINDOW = /\d%\||(?:█|\s|[│┃║|╮╯┐┘]|(?:it\/s|s\/it|B\/s)\])$/;

/** One line of the log as it was before the wrap, with the file line its first piece is on. */
export interface UnwrappedLine {
  text: string;
  line: number;
}

const widthOf = (line: string): number => stripAnsi(line).length;

// The window's width, or null when the log does not look hard-wrapped.
export const findWrapWidth = (lines: readonly string[]): number | null => {
  // Each line's width once: a log of up to 16 MB is checked before it is read.
  const widths = lines.map(widthOf);
  let width = 0;
  for (const lineWidth of widths) width = Math.max(width, lineWidth);
  if (width < MIN_WIDTH || width > MAX_WIDTH) return null;
  const wrapped = new Set<string>();
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i] ?? '';
    if (widths[i] !== width || FILLS_WINDOW.test(line)) continue;
    if (!RECORD_START.test(lines[i + 1] ?? '')) wrapped.add(line.replace(/\d+/g, '0'));
  }
  return wrapped.size >= MIN_WRAPPED ? width : null;
};

// Joins each piece onto the line it was broken from: a line of the full width takes the next line when that does not
// begin a record.
export const unwrapLines = (lines: readonly string[], width: number): UnwrappedLine[] => {
  const out: UnwrappedLine[] = [];
  let joining = false;
  lines.forEach((text, i) => {
    const last = out.at(-1);
    if (joining && last !== undefined && !RECORD_START.test(text)) last.text += text;
    else out.push({ text, line: i + 1 });
    joining = widthOf(text) === width && !text.endsWith('  ');
  });
  return out;
};
