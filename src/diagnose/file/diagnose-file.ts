// Diagnoses a log file by streaming it through the same diagnoser a watch uses, skipping the lines that
// cannot matter (memory stays flat: one chunk plus the diagnoser's bounded state).
// A small log pasted newest line first is read whole and put back in time order first.
import { readFile, stat } from 'node:fs/promises';
import type { Diagnosis } from '../../events.ts';
import type { EngineId } from '../../engines/types.ts';
import { createDiagnoser } from '../diagnoser.ts';
import type { DiagnoseEnd } from '../types.ts';
import { findLastStart } from './last-start.ts';
import { scanLogFile } from './scan-file.ts';
import { isNewestFirst, timeOrder } from './time-order.ts';
import { findWrapWidth, unwrapLines } from '../../logs/hard-wrap.ts';

export interface DiagnoseLogFileOptions {
  engine?: EngineId | 'auto';
  /** How the server ended, when known (`--exit-code`). */
  end?: DiagnoseEnd;
  redact?: (text: string) => string;
  signal?: AbortSignal;
  /** The engine release whose rules apply (`--engine-version`), instead of the one the log names. */
  engineVersion?: string;
}

/** Up to this size a log is read whole to see whether it was pasted newest line first (console copies are small). */
const TIME_ORDER_CHECK_BYTES = 16 << 20;

// Diagnoses a log pasted newest line first in time order; its evidence and summary keep the file's line numbers.
const diagnoseInTimeOrder = (
  diagnoser: ReturnType<typeof createDiagnoser>,
  lines: readonly string[],
  end: DiagnoseEnd,
): Diagnosis => {
  const order = timeOrder(lines);
  order.forEach((fileLine, i) => {
    diagnoser.push({ line: i + 1, text: lines[fileLine - 1] ?? '' });
  });
  const diagnosis = diagnoser.finish(end);
  const fileLineOf = (line: number): number => order[line - 1] ?? line;
  return {
    ...diagnosis,
    summary: `${diagnosis.summary.replace(/\(line (\d+)\)/g, (_, line: string) => `(line ${String(fileLineOf(Number(line)))})`)} (the log lists its newest line first: read in time order)`,
    evidence: diagnosis.evidence.map((evidence) =>
      evidence.line === undefined ? evidence : { ...evidence, line: fileLineOf(evidence.line) },
    ),
  };
};

// Diagnoses a log copied from a fixed-width window with its broken lines joined again; evidence keeps the line
// numbers of the file, each joined line the number of its first piece.
const diagnoseUnwrapped = (
  diagnoser: ReturnType<typeof createDiagnoser>,
  lines: readonly string[],
  width: number,
  end: DiagnoseEnd,
): Diagnosis => {
  for (const line of unwrapLines(lines, width)) diagnoser.push(line);
  const diagnosis = diagnoser.finish(end);
  return {
    ...diagnosis,
    summary: `${diagnosis.summary} (the log's lines were broken at ${String(width)} columns: read joined again)`,
  };
};

// Reads a log file and explains the last start it records.
export const diagnoseLogFile = async (
  path: string,
  options: DiagnoseLogFileOptions = {},
): Promise<Diagnosis> => {
  const diagnoser = createDiagnoser({
    engine: options.engine ?? 'auto',
    ...(options.redact === undefined ? {} : { redact: options.redact }),
    ...(options.engineVersion === undefined ? {} : { engineVersion: options.engineVersion }),
  });
  if ((await stat(path)).size <= TIME_ORDER_CHECK_BYTES) {
    const lines = (await readFile(path, 'utf8')).split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (isNewestFirst(lines)) return diagnoseInTimeOrder(diagnoser, lines, options.end ?? {});
    const width = findWrapWidth(lines);
    if (width !== null) return diagnoseUnwrapped(diagnoser, lines, width, options.end ?? {});
  }
  const lines = scanLogFile({
    path,
    needles: () => diagnoser.needles(),
    tailLines: diagnoser.tailLines,
    contextLines: diagnoser.contextLines,
    from: (handle, size) => findLastStart(handle, size, options.engine ?? 'auto'),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  for await (const batch of lines) for (const line of batch) diagnoser.push(line);
  return diagnoser.finish(options.end ?? {});
};
