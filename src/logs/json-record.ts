// Structured log records: one JSON object per line whose message and level are fields (tracing-subscriber's JSON
// output, which TGI prints with `--json-output`: `{"timestamp":…,"level":"INFO","fields":{"message":"Connected"},
// "target":"text_generation_router","span":{"rank":0,…}}`; older releases put `message` at the top level).
import { levelOf, type LineLevel } from './prefixes.ts';

/** What a JSON log record says: its message's lines, its level and the rank of its span, if any. */
export interface JsonRecord {
  lines: string[];
  level: LineLevel | null;
  rank: number | null;
}

// Read field by field rather than with JSON.parse: a paste broken at the terminal's width (`"line_number` on one
// line, `":224}` on the next) still carries its message and level intact.
const MESSAGE = /"message":"((?:[^"\\]|\\.)*)"/;
const LEVEL = /"level":"(\w+)"/;
const RANK = /"rank":(\d+)/;
/** A traceback in a message is kept to its last lines, where its error is. */
const MAX_LINES = 64;

const unescape = (text: string): string => {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
};

// The record a line holds, or null when it is not a JSON log record with a message.
export const readJsonRecord = (text: string): JsonRecord | null => {
  if (!text.startsWith('{"') || !text.includes('"message":"')) return null;
  const message = MESSAGE.exec(text);
  if (message === null) return null;
  const lines = unescape(message[1] ?? '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const level = LEVEL.exec(text)?.[1];
  const rank = RANK.exec(text)?.[1];
  return {
    lines: lines.slice(-MAX_LINES),
    level: levelOf(level),
    rank: rank === undefined ? null : Number(rank),
  };
};
