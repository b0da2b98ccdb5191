// `vigil sim --engine-version V` prints that release's line shapes, from the same catalogue the rules are checked
// against; the graph-capture and draft-capture phases are seen on a simulated SGLang 0.5.18 start.
import { describe, expect, it } from 'vitest';
import { createStartTracker } from '../../src/diagnose/tracker.ts';
import { getEngine } from '../../src/engines/index.ts';
import { sglangStartLines } from '../../src/engines/sglang/sim-lines.ts';
import { vllmStartLines } from '../../src/engines/vllm/sim-lines.ts';
import { normalizeLine } from '../../src/logs/normalize.ts';

const phasesOf = (engine: 'sglang' | 'vllm', lines: string[]): string[] => {
  const tracker = createStartTracker(getEngine(engine));
  lines.forEach((text, i) => {
    tracker.track({ line: i + 1, text }, normalizeLine(text), i);
  });
  return tracker.phaseMarks().map((mark) => mark.name);
};

const prefixed = (message: string): string => `[2026-08-01 10:00:00 TP0] ${message}`;

describe('simulated release line shapes', () => {
  it('SGLang 0.5.18: target and draft capture lines in the 0.5.14+ shape, seen as their phases', () => {
    const lines = sglangStartLines('0.5.18');
    const begin = lines.captureBegin([1, 2, 4]);
    expect(begin).toMatch(
      /^Capture target decode CUDA graph begin\. backend=full, .*bs=\[1, 2, 4\], avail mem=/,
    );
    expect(lines.captureEnd('12.00')).toMatch(/^Capture target decode CUDA graph end\. elapsed=12\.00 s/);
    expect(lines.draftCaptureBegin('draft', '9.55')).toMatch(/^Capture draft decode CUDA graph begin\./);
    expect(lines.draftCaptureBegin('draft extend', '9.34')).toMatch(
      /^Capture draft extend CUDA graph begin\. step=/,
    );
    expect(lines.kvAllocated).toMatch(/^KV Cache is allocated\. dtype: /);
    expect(lines.modelInfoPath).toBe('/model_info');
    const phases = phasesOf(
      'sglang',
      [
        lines.captureBegin([1, 2]),
        lines.captureEnd('1.0'),
        lines.draftCaptureBegin('draft', '9'),
        lines.draftCaptureEnd('draft', '1', '0.1', '9'),
      ].map(prefixed),
    );
    expect(phases).toEqual(['graph-capture', 'draft-graph-capture']);
  });

  it('SGLang 0.4.10: the old shapes and the old model-info endpoint', () => {
    const lines = sglangStartLines('0.4.10');
    expect(lines.captureBegin([1])).toMatch(
      /^Capture cuda graph begin\. This can take up to several minutes/,
    );
    expect(lines.draftCaptureBegin('draft', '9.55')).toMatch(/^Capture draft cuda graph begin\./);
    expect(lines.modelInfoPath).toBe('/get_model_info');
    expect(
      phasesOf('sglang', [lines.captureBegin([1]), lines.draftCaptureBegin('draft', '9')].map(prefixed)),
    ).toEqual(['graph-capture', 'draft-graph-capture']);
  });

  it('vLLM: the banner by release, and main announces its HTTP server', () => {
    expect(vllmStartLines('0.8.5.post1').banner('m')).toBe('vLLM API server version 0.8.5.post1');
    expect(vllmStartLines('0.20.1').banner('m')).toBe('vLLM server version 0.20.1, serving model m');
    expect(vllmStartLines('0.20.1').httpStarted).toBeNull();
    expect(vllmStartLines('main').httpStarted).toBe('API server: HTTP server started');
  });

  it('refuses a release without a catalogue, naming the ones there are', () => {
    expect(() => sglangStartLines('0.9.99')).toThrow(/no catalogue for sglang 0\.9\.99/);
  });
});
