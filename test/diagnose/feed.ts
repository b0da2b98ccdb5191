// Diagnoses a log's lines fed one by one, numbered from 1, as a followed log feeds them.
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import type { DiagnoseEnd } from '../../src/diagnose/types.ts';
import type { EngineId } from '../../src/engines/types.ts';
import type { Diagnosis } from '../../src/events.ts';

export const diagnoseLines = (
  engine: EngineId | 'auto',
  lines: readonly string[],
  end: DiagnoseEnd = {},
): Diagnosis => {
  const diagnoser = createDiagnoser({ engine });
  lines.forEach((text, i) => {
    diagnoser.push({ line: i + 1, text });
  });
  return diagnoser.finish(end);
};
