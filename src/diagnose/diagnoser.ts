// Explains a failed start from its log. (Minimal version; failure signatures pending.)
import type { Diagnosis } from '../events.ts';
import type { Diagnoser, DiagnoserOptions } from './types.ts';

// Creates a diagnoser that consumes a log incrementally.
export const createDiagnoser = (options: DiagnoserOptions): Diagnoser => {
  const redact = options.redact ?? ((text: string) => text);
  const tail: { line: number; text: string }[] = [];
  return {
    push(line) {
      tail.push({ line: line.line, text: redact(line.text) });
      if (tail.length > 20) tail.shift();
    },
    finish(end = {}): Diagnosis {
      const how = end.signal ?? (end.exitCode === undefined || end.exitCode === null ? 'unknown' : `exit code ${end.exitCode}`);
      return { class: 'unknown', summary: `the server stopped (${how})`, evidence: tail.slice(-5), advice: [] };
    },
  };
};
