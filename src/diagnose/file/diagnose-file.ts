// Diagnoses a log file by streaming it through the same diagnoser a watch uses, skipping the lines that
// cannot matter (memory stays flat: one chunk plus the diagnoser's bounded state).
import type { Diagnosis } from '../../events.ts';
import type { EngineId } from '../../engines/types.ts';
import { createDiagnoser } from '../diagnoser.ts';
import type { DiagnoseEnd } from '../types.ts';
import { findLastStart } from './last-start.ts';
import { scanLogFile } from './scan-file.ts';

export interface DiagnoseLogFileOptions {
  engine?: EngineId | 'auto';
  /** How the server ended, when known (`--exit-code`). */
  end?: DiagnoseEnd;
  redact?: (text: string) => string;
  signal?: AbortSignal;
  /** The engine release whose rules apply (`--engine-version`), instead of the one the log names. */
  engineVersion?: string;
}

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
