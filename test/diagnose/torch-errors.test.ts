// The shared rules read the failures current torch and transformers print (test/fixtures/torch/README.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import type { DiagnosisClass } from '../../src/events.ts';

const EXPECTED: Record<string, DiagnosisClass> = {
  'oom.log': 'cuda-oom',
  'capture-oom.log': 'cuda-oom',
  'capture-sync.log': 'graph-capture-failed',
  'capture-item.log': 'graph-capture-failed',
  // A device-side assert is a bug in a kernel or its inputs: no class names it.
  'device-assert.log': 'unknown',
  'state-dict-mismatch.log': 'weight-mismatch',
  'transformers-model-type.log': 'dependency',
  'transformers-missing-path.log': 'model-not-found-or-auth',
};

describe('failures of torch 2.11 and transformers 5.17', () => {
  it.each(Object.entries(EXPECTED))('%s is %s', (file, expected) => {
    const text = readFileSync(new URL(`../fixtures/torch/${file}`, import.meta.url), 'utf8');
    const diagnoser = createDiagnoser({ engine: 'auto' });
    text.split('\n').forEach((line, i) => {
      diagnoser.push({ line: i + 1, text: line });
    });
    expect(diagnoser.finish({ exitCode: 1 }).class).toBe(expected);
  });
});
