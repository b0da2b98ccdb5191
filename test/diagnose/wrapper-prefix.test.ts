// A wrapper's prefix vigil has no rule for is learned from the log: the diagnoser reads the lines behind it as it
// reads them bare, and its evidence still quotes the lines whole.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';
import { createWrapperPrefix } from '../../src/diagnose/wrapper-prefix.ts';
import { fedLines, loadManifest, readLines } from './fixture-logs.ts';

const diagnose = (lines: string[]) => diagnoseLines('auto', lines);

const FAILED_START = [
  'INFO 05-26 00:17:40 [api_server.py:1043] vLLM API server version 0.8.5',
  'INFO 05-26 00:17:41 [config.py:717] This model supports multiple tasks: {generate}. Defaulting to generate.',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3/site-packages/vllm/model_executor/models/qwen2.py", line 420, in load_weights',
  '    param = params_dict[name]',
  "KeyError: 'layers.0.self_attn.qkv_proj.weight'",
];

describe('a wrapper prefix learned from the log', () => {
  it('takes a prefix off once three lines show an engine line or a traceback behind it', () => {
    const wrapper = createWrapperPrefix();
    const lines = FAILED_START.map((line, i) => `gpu-job-7[${String(1040 + i)}]: ${line}`);
    const seen = lines.map((line) => wrapper.strip(line));
    // Learned at the third line; the frames keep their indent.
    expect(seen.slice(0, 2)).toEqual(lines.slice(0, 2));
    expect(seen.slice(2)).toEqual(FAILED_START.slice(2));
  });

  it('reads the first lines behind a prefix it learns later without it, in order', () => {
    // The error stands on the prefix's first line: held until the prefix is learned, then read without it.
    const lines = [
      "gpu-job-7[1040]: KeyError: 'layers.0.self_attn.qkv_proj.weight'",
      'gpu-job-7[1041]: INFO 05-26 00:17:41 [config.py:717] This model supports multiple tasks.',
      'gpu-job-7[1042]: INFO 05-26 00:17:42 [config.py:718] Using max model len 4096.',
      'gpu-job-7[1043]: INFO 05-26 00:17:43 [config.py:719] Chunked prefill is enabled.',
    ];
    const result = diagnose([
      'gpu-job-7[1039]: Traceback (most recent call last):',
      '  File "/usr/lib/python3/site-packages/vllm/model_executor/models/qwen2.py", line 420, in load_weights',
      ...lines,
    ]);
    expect(result.class).toBe('weight-mismatch');
    expect(result.evidence.map((e) => e.text)).toContain(lines[0]);
  });

  it('reads the lines behind it as it reads them bare, and quotes them whole', () => {
    const bare = diagnose(FAILED_START);
    const wrapped = diagnose(FAILED_START.map((line) => `gpu-job-7[1042]: ${line}`));
    expect(bare.class).toBe('weight-mismatch');
    expect(wrapped.class).toBe('weight-mismatch');
    expect(wrapped.summary).toBe(bare.summary);
    expect(wrapped.evidence.map((e) => e.text)).toContain(
      "gpu-job-7[1042]: KeyError: 'layers.0.self_attn.qkv_proj.weight'",
    );
  });

  it('learns behind a known wrapper, and learns no indent or message words', () => {
    const inner = createWrapperPrefix();
    const seen = FAILED_START.map((line) => inner.strip(`[server] w/7: ${line}`));
    expect(seen.at(-1)).toBe("[server] KeyError: 'layers.0.self_attn.qkv_proj.weight'");

    const words = createWrapperPrefix();
    const scheduler =
      '[2025-06-06 10:23:37 TP1] Scheduler hit an exception: Traceback (most recent call last):';
    for (let i = 0; i < 5; i++) expect(words.strip(scheduler)).toBe(scheduler);
    const frames = createWrapperPrefix();
    const frame = '  File "/x/vllm/engine.py", line 1, in f';
    for (let i = 0; i < 5; i++) expect(frames.strip(frame)).toBe(frame);
  });

  it('changes nothing in a log whose lines carry no unknown prefix', () => {
    const wrapper = createWrapperPrefix();
    for (const line of FAILED_START) expect(wrapper.strip(line)).toBe(line);
  });

  it("reads the corpus's longer logs behind an unknown prefix as it reads them bare", () => {
    // Every 8th log of 40 lines or more (a prefix is learned from the log's own lines, so a short one may end first).
    const sample = loadManifest()
      .filter((entry) => readLines(entry.file).length >= 40)
      .filter((_, i) => i % 8 === 0);
    expect(sample.length).toBeGreaterThan(100);
    const changed = sample
      .filter((entry) => {
        const lines = fedLines(entry.file).fed.map(({ text }) => text);
        return (
          diagnose(lines.map((text, i) => `node-3[${String(700 + (i % 5))}]: ${text}`)).class !==
          entry.expected_diagnosis
        );
      })
      .map((entry) => entry.file);
    expect(changed).toEqual([]);
  });
});
