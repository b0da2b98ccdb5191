// Line normalisation for matching: ANSI codes, `\r` redraws, wrapper and engine prefixes, and progress bars joined
// onto the next log line. Evidence never quotes the normalised text; it quotes the raw line (ANSI removed).
import { stripVTControlCharacters } from 'node:util';
import { readJsonRecord } from './json-record.ts';
import { stripPrefixes, type LineLevel, type StrippedLine } from './prefixes.ts';
import { splitProgressBar, type ProgressBar } from './progress-bar.ts';

/** One message inside a physical line: a log message, or a progress bar. */
export interface LinePiece {
  text: string;
  rank: number | null;
  level: LineLevel | null;
  bar: ProgressBar | null;
}

export interface NormalizedLine {
  /** The messages on the line, in order; usually one. Empty for blank lines. */
  pieces: LinePiece[];
  /** The last message's text: what a "last line" display shows. */
  text: string;
}

// ANSI colour codes whose ESC byte a log shipper wrote out as text: rsyslog and CloudWatch `#033[`, `cat -v`/`less`
// `^[[`, `less` without -R `ESC[`, and the escapes `\x1b[`, `\u001b[`, `\033[` left undecoded in JSON or copied log text.
const TEXTUAL_ESC = /(?:#033|\^\[|ESC|\\x1b|\\u001b|\\033)\[/g;
const TEXTUAL_SGR = /(?:#033|\^\[|ESC|\\x1b|\\u001b|\\033)\[[0-9;]*m/g;
// A colour code whose ESC byte a paste dropped altogether (GitHub issue text): `[0;36m(APIServer pid=1) INFO …`, only
// at the start of a line, where a log line never begins so, and then the one that ends the colour of a process tag
// there (`[36m(run pid=28)[0m ValueError: …`, Ray's and vLLM's tags).
const BARE_SGR_AT_START = /^\[\d{1,3}(?:;\d{1,3})*m(?:(\([^()]{1,80}\))\[\d{1,3}(?:;\d{1,3})*m)?/;
const hasTextualEsc = (text: string): boolean =>
  text.includes('#033[') ||
  text.includes('^[[') ||
  text.includes('ESC[') ||
  text.includes('\\x1b[') ||
  text.includes('\\u001b[') ||
  text.includes('\\033[');

// Colour written as HTML by terminal-to-HTML exporters (`aha`, IDE consoles): `<font color="#2AA1B3"><b>…</b></font>`.
const HTML_COLOUR = /<\/?(?:font|span|b)(?:\s[^<>]{0,80})?>/g;
const hasHtmlColour = (text: string): boolean => text.includes('</font>') || text.includes('</span>');

// GitHub turns `main.rs:317` in a pasted log into a link; the copied text keeps the markdown:
// `router/src/[main.rs:317](http://main.rs:317/)`, also with the colon after the number inside the link text.
const MARKDOWN_AUTOLINK = /\[([\w.-]+\.\w+:\d+:?)\]\(https?:\/\/[^)\s]*\)/g;

// Removes ANSI codes and terminal control sequences (also colour codes written out as text or HTML); the raw form
// evidence quotes.
export const stripAnsi = (text: string): string => {
  const bare = text.startsWith('[') ? text.replace(BARE_SGR_AT_START, '$1') : text;
  const uncoloured = hasHtmlColour(bare) ? bare.replace(HTML_COLOUR, '') : bare;
  const textual = hasTextualEsc(uncoloured);
  // Colour written out as text goes first: a shipper's `#033[2m` codes may sit inside an autolink's text.
  const plain = textual ? uncoloured.replace(TEXTUAL_SGR, '') : uncoloured;
  const unlinked = plain.includes('](http') ? plain.replace(MARKDOWN_AUTOLINK, '$1') : plain;
  const decoded = textual ? unlinked.replace(TEXTUAL_ESC, '\u001b[') : unlinked;
  return decoded.includes('\u001b') || decoded.includes('\u009b')
    ? stripVTControlCharacters(decoded)
    : decoded;
};

// A log line as it may be shown on a terminal: ANSI sequences removed, and any other control character (BEL,
// backspace, a lone ESC, C1 codes) replaced by a visible stand-in, so evidence cannot ring, erase or restyle.
export const visibleText = (text: string): string =>
  stripAnsi(text).replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );

// A `\r`-redrawn line shows its last non-empty state, as a terminal would.
export const collapseRedraws = (text: string): string => {
  if (!text.includes('\r')) return text;
  const parts = text.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i];
    if (part !== undefined && part.trim() !== '') return part;
  }
  return '';
};

// Xinference's actor framework (xoscar) puts the actor's address before the message of an error it relays, after the
// exception's class or alone: `KeyError: [address=0.0.0.0:35521, pid=15640] 'layers.10.mlp.gate.g_idx'`.
const RELAY_TAG = /^((?:[\w.]+\.)?[A-Z]\w*: )?\[address=[^\]\s,]+, pid=\d+\] /;
const withoutRelayTag = (line: StrippedLine): StrippedLine =>
  line.text.includes('[address=') ? { ...line, text: line.text.replace(RELAY_TAG, '$1') } : line;

// Normalises one raw physical line into the messages it holds.
export const normalizeLine = (raw: string): NormalizedLine => {
  const pieces: LinePiece[] = [];
  let rest = collapseRedraws(stripAnsi(raw));
  let inherited: { rank: number | null; level: LineLevel | null } = { rank: null, level: null };
  // A physical line holds at most a few bars then one message; the bound keeps hostile input cheap.
  for (let i = 0; i < 4 && rest.trim() !== ''; i++) {
    const stripped = withoutRelayTag(stripPrefixes(rest));
    const rank = stripped.rank ?? inherited.rank;
    const level = stripped.level ?? inherited.level;
    // A JSON record may come indented (pasted in a code block).
    const json = i === 0 ? stripped.text.trimStart() : '';
    const record = json.startsWith('{"') ? readJsonRecord(json) : null;
    if (record !== null) {
      // Each line of the record's message is a message of its own, at the record's level.
      for (const line of record.lines) {
        const inner = stripPrefixes(line);
        pieces.push({
          text: inner.text.trimEnd(),
          rank: inner.rank ?? record.rank ?? rank,
          level: record.level ?? inner.level ?? level,
          bar: null,
        });
      }
      break;
    }
    const split = splitProgressBar(stripped.text);
    if (split === null) {
      // A wrapper with nothing after it (a bare timestamp line) holds no message.
      if (stripped.text.trim() !== '') pieces.push({ text: stripped.text.trimEnd(), rank, level, bar: null });
      break;
    }
    pieces.push({ text: split.text, rank, level, bar: split.bar });
    rest = split.rest;
    // Wrapper prefixes (docker compose, timestamps) apply to the whole physical line, not to what follows a bar.
    inherited = { rank: null, level: null };
  }
  return { pieces, text: pieces.at(-1)?.text ?? '' };
};
