import { describe, expect, it } from 'vitest';
import { formatDiagnosisPlain } from '../../src/diagnose/format.ts';
import type { Diagnosis } from '../../src/events.ts';

const diagnosis: Diagnosis = {
  class: 'cuda-oom',
  summary: 'the GPU ran out of memory while capturing CUDA graphs',
  evidence: [
    { line: 9, text: 'Traceback (most recent call last):' },
    { line: 18, text: `Exception: Capture cuda graph failed: CUDA out of memory. ${'x'.repeat(400)}` },
  ],
  advice: ['Lower --cuda-graph-max-bs (e.g. 16).'],
};

describe('formatDiagnosisPlain', () => {
  it('prints class, summary, numbered evidence and advice without colour by default', () => {
    const text = formatDiagnosisPlain(diagnosis);
    const lines = text.split('\n');
    expect(lines[0]).toBe('cuda-oom: the GPU ran out of memory while capturing CUDA graphs');
    expect(lines).toContain('evidence:');
    expect(lines).toContain('  line  9: Traceback (most recent call last):');
    expect(lines).toContain('  - Lower --cuda-graph-max-bs (e.g. 16).');
    expect(text).not.toContain('\u001b[');
    expect(text.endsWith('\n')).toBe(false);
  });

  it('names evidence that is no log line by its source, and never prints a line number for it', () => {
    const text = formatDiagnosisPlain({
      class: 'unknown',
      summary: 'smoke test failed',
      evidence: [{ source: 'POST /v1/chat/completions', text: 'HTTP 500: boom' }, { text: 'HTTP none' }],
      advice: [],
    });
    expect(text.split('\n')).toEqual([
      'unknown: smoke test failed',
      'evidence:',
      '  POST /v1/chat/completions: HTTP 500: boom',
      '  HTTP none',
    ]);
  });

  it('cuts very long evidence lines, unless told not to', () => {
    expect(formatDiagnosisPlain(diagnosis).split('\n')[3]?.endsWith('…')).toBe(true);
    expect(formatDiagnosisPlain(diagnosis, { maxLineLength: 0 })).toContain('x'.repeat(400));
  });

  it('colours on request, or with the caller’s painter', () => {
    expect(formatDiagnosisPlain(diagnosis, { color: true })).toContain('\u001b[');
    const painted = formatDiagnosisPlain(diagnosis, { paint: (tone, text) => `<${tone}>${text}</${tone}>` });
    expect(painted.split('\n')[0]).toBe(
      '<bold><red>cuda-oom</red></bold>: the GPU ran out of memory while capturing CUDA graphs',
    );
  });

  it('omits empty sections', () => {
    expect(formatDiagnosisPlain({ class: 'ready', summary: 'ready', evidence: [], advice: [] })).toBe(
      'ready: ready',
    );
  });
});
