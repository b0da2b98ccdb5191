// The tty's live status line: spinner, elapsed, rung, phase with x/y and ETA, last probe; cut to the width.
import { formatDuration } from '../config/duration.ts';
import { describeProbe, formatEta } from './lines.ts';
import type { Paint, Tone } from './human-lines.ts';
import type { WatchState } from './watch-state.ts';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

interface Segment {
  text: string;
  tone: Tone | null;
}

// The pieces of the line, before colour and truncation.
export const statusSegments = (state: WatchState, t: number, frame: number): Segment[] => {
  const spinner = SPINNER[frame % SPINNER.length] ?? '-';
  const segments: Segment[] = [
    { text: `${spinner} `, tone: 'cyan' },
    { text: formatDuration(Math.max(0, t)), tone: 'bold' },
  ];
  const add = (text: string, tone: Tone | null = null): void => {
    segments.push({ text: ' · ', tone: 'dim' }, { text, tone });
  };
  add(state.rung ?? 'starting');
  if (state.phase !== null) {
    const progress = state.progress === null ? '' : ` ${state.progress.done}/${state.progress.total}`;
    add(`${state.phase}${progress}`, 'bold');
  }
  const eta = formatEta(state, t);
  if (eta !== null) add(eta);
  if (state.probe !== null) {
    const answer = describeProbe(state.probe);
    add(`probe ${answer}`, state.probe.status !== null && state.probe.status < 300 ? 'green' : 'dim');
  }
  return segments;
};

// Created on first use: building a segmenter loads ICU data (tens of ms), which jsonl output never needs.
let graphemes: Intl.Segmenter | null = null;
const splitGraphemes = (text: string): string[] => {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(graphemes.segment(text), (part) => part.segment);
};

// Joins segments, painted, keeping at most `width` visible characters (graphemes; our pieces are all narrow).
export const renderSegments = (segments: Segment[], width: number, paint: Paint): string => {
  let left = Math.max(0, width);
  let out = '';
  for (const segment of segments) {
    if (left <= 0) break;
    const chars = splitGraphemes(segment.text);
    let text = segment.text;
    if (chars.length > left) text = left === 1 ? '…' : `${chars.slice(0, left - 1).join('')}…`;
    left -= Math.min(chars.length, left);
    out += segment.tone === null ? text : paint(segment.tone, text);
  }
  return out;
};
