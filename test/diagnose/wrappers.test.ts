// A log read through a wrapper (a process runner, a supervisor, the kubelet's log files, a code block) gets the
// class it gets unwrapped: each fixture log read through one of the wrappers in turn, put in front of every line.
import { describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import { fedLines, loadManifest } from './fixture-logs.ts';

const WRAPPERS = [
  '[server] ',
  '[default0]:',
  'vLLM STDOUT: ',
  '2026-01-05T10:00:00.123456789Z stderr F ',
  '    ',
];

const classOf = (file: string, wrapper: string): string => {
  const diagnoser = createDiagnoser({ engine: 'auto' });
  for (const { line, text } of fedLines(file).fed)
    diagnoser.push({ line, text: text === '' ? text : wrapper + text });
  return diagnoser.finish({}).class;
};

describe('wrapped logs', () => {
  const manifest = loadManifest();

  WRAPPERS.forEach((wrapper, w) => {
    it(`reads logs behind ${JSON.stringify(wrapper)} as it reads them bare`, () => {
      const sample = manifest.filter((_, i) => i % WRAPPERS.length === w);
      expect(sample.length).toBeGreaterThan(300);
      const changed = sample
        // A wrapper that names an engine counts for it: it is tried on that engine's logs only.
        .filter((entry) => !(wrapper.startsWith('vLLM') && entry.engine !== 'vllm'))
        .filter((entry) => classOf(entry.file, wrapper) !== entry.expected_diagnosis)
        .map((entry) => entry.file);
      expect(changed).toEqual([]);
    });
  });
});
