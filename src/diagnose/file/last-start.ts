// Finds where the last start of a log begins, reading backwards from the end, so that `vigil diagnose` on a log
// appended to by launch after launch reads only that start: what earlier starts printed explains nothing about it
// (the diagnoser forgets it at a restart anyway), and on a large log it is nearly all the work.
import type { FileHandle } from 'node:fs/promises';
import { NAMED_ENGINES } from '../../engines/index.ts';
import type { EngineId } from '../../engines/types.ts';
import { normalizeLine } from '../../logs/normalize.ts';
import { PHASE_NEEDLES } from '../needles.ts';
import { createPhaseReader, type PhaseReader } from '../tracker.ts';
import { createLineFinder, type LineFinder } from './line-finder.ts';

/** Where a start begins: its first line's byte offset, and its 1-based line number. */
export interface StartPlace {
  offset: number;
  line: number;
}

const NEWLINE = 0x0a;
const CHUNK = 1 << 20;
/** How far back from the end the last start is looked for; a start begun further back is read with the rest. */
const SEARCH_BACK = 16 << 20;
/** How far above a start's last first-phase line its first one may be (vLLM prints several before any phase). */
const GROUP_SPAN = 1 << 20;

// Each engine's phase reader: the one asked for, or all of them when the engine is detected from the log.
const readersFor = (engine: EngineId | 'auto') =>
  NAMED_ENGINES.filter((spec) => engine === 'auto' || engine === 'generic' || spec.id === engine).map(
    createPhaseReader,
  );

// Counts the newlines in the file's first `end` bytes (the line number where a start found backwards begins).
const countNewlinesBefore = async (finder: LineFinder, handle: FileHandle, end: number): Promise<number> => {
  const [buffer] = finder.buffers;
  let count = 0;
  for (let at = 0; at < end;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, end - at), at);
    if (bytesRead === 0) break;
    count += finder.countNewlines(buffer, 0, bytesRead);
    at += bytesRead;
  }
  return count;
};

/**
 * The first line of the log's last start when an earlier start precedes it within the last {@link SEARCH_BACK}
 * bytes, or null (read the whole log). A start is a run of lines that begin one engine's first phase with no later
 * phase between them; it is the last start when a line of a later phase, or another engine's start, sits above it.
 */
export const findLastStart = async (
  handle: FileHandle,
  size: number,
  engine: EngineId | 'auto',
): Promise<StartPlace | null> => {
  const readers = readersFor(engine);
  // The file scan's own line finder, searching for the phase literals only.
  const finder = createLineFinder({ bufferBytes: Math.min(CHUNK, size) });
  finder.setLiterals(PHASE_NEEDLES);
  const [buffer] = finder.buffers;
  const place = async (offset: number): Promise<StartPlace> => ({
    offset,
    line: 1 + (await countNewlinesBefore(finder, handle, offset)),
  });
  let groupStart: number | null = null;
  let groupReader: PhaseReader | null = null;
  // Once a start is found, its run of first lines is followed up past the search limit.
  for (let end = size; end > 0 && (size - end < SEARCH_BACK || groupStart !== null);) {
    const from = Math.max(0, end - CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, end - from, from);
    // A chunk begins at a line start: the partial line in front is read with the next chunk back.
    const skip = from === 0 ? 0 : buffer.indexOf(NEWLINE) + 1;
    // No line starts in the chunk (a line longer than the chunk, ending at its end or beyond it): the search stops
    // here, as it would go back no further.
    if (from > 0 && (skip === 0 || skip >= bytesRead)) return groupStart === null ? null : place(groupStart);
    // Lines holding a phase literal, last first.
    for (const start of finder.lineStarts(buffer, skip, bytesRead).reverse()) {
      const offset = from + start;
      if (groupStart !== null && groupStart - offset > GROUP_SPAN) return place(groupStart);
      const newline = buffer.indexOf(NEWLINE, start);
      const normalized = normalizeLine(
        buffer.toString('utf8', start, newline === -1 || newline >= bytesRead ? bytesRead : newline),
      );
      for (const reader of readers) {
        const phase = reader.phaseOf(normalized);
        if (phase === null) continue;
        // Above a start: a later phase of the start before, or another engine's start.
        if (groupStart !== null && (phase !== reader.first || reader !== groupReader))
          return place(groupStart);
        if (phase === reader.first) [groupStart, groupReader] = [offset, reader];
        break;
      }
    }
    end = from + skip;
  }
  // The start found is the log's first (nothing above it), or none began near the end: read it all.
  return null;
};
