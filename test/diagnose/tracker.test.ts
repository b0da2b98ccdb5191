import { describe, expect, it } from 'vitest';
import { createStartTracker } from '../../src/diagnose/tracker.ts';
import { getEngine } from '../../src/engines/index.ts';
import type { EngineId } from '../../src/engines/types.ts';
import type { RawLine } from '../../src/logs/types.ts';
import { readLines } from './fixture-logs.ts';

// Feeds lines one second apart and returns the phase sequence with the line that began each phase.
const phasesOf = (engine: EngineId, lines: readonly RawLine[]): string[] => {
  const tracker = createStartTracker(getEngine(engine));
  const seen: string[] = [];
  for (const line of lines) {
    for (const update of tracker.push(line, line.line * 1000).updates) {
      if (update.kind === 'phase') seen.push(`${update.phase}@${line.line}`);
    }
  }
  return seen;
};

const numbered = (...texts: string[]): RawLine[] => texts.map((text, i) => ({ line: i + 1, text }));

describe('phase sequences of the fixture logs', () => {
  it.each([
    [
      'sglang',
      'sglang-ready-01.log',
      [
        'dist-init@1',
        'weight-load@2',
        'kv-cache@35',
        'graph-capture@39',
        'http-up@59',
        'warmup@64',
        'ready@67',
      ],
    ],
    [
      'sglang',
      'sglang-ready-02.log',
      [
        'process-up@1',
        'dist-init@2',
        'weight-load@3',
        'kv-cache@14',
        'graph-capture@16',
        'http-up@25',
        'ready@31',
      ],
    ],
    ['sglang', 'sglang-hang-01.log', ['process-up@1', 'dist-init@3']],
    ['sglang', 'sglang-hang-02.log', ['graph-capture@1']],
    ['sglang', 'sglang-other-03.log', ['dist-init@3', 'weight-load@5']],
    ['vllm', 'vllm-ready-01.log', ['weight-load@1', 'compile@2', 'kv-cache@7', 'graph-capture@10']],
    ['vllm', 'vllm-ready-02.log', ['graph-capture@1', 'warmup@3']],
    ['vllm', 'vllm-ready-03.log', ['warmup@1', 'http-up@3']],
    ['vllm', 'vllm-cuda-oom-02.log', ['process-up@1', 'kv-cache@2']],
    ['vllm', 'vllm-dependency-01.log', ['process-up@3']],
    ['vllm', 'vllm-port-in-use-01.log', ['http-up@1']],
    ['tgi', 'tgi-killed-01.log', ['weight-load@1']],
  ] as const)('%s %s', (engine, file, expected) => {
    expect(phasesOf(engine, readLines(file))).toEqual(expected);
  });

  it('a vLLM container restart starts the phases again', () => {
    expect(phasesOf('vllm', readLines('vllm-model-not-found-or-auth-02.log'))).toEqual(['process-up@8']);
    const twice = numbered(
      '(APIServer pid=1) INFO 11-06 16:17:14 [api_server.py:1839] vLLM API server version 0.11.0',
      '(EngineCore_DP0 pid=2) INFO 11-24 11:43:54 [gpu_model_runner.py:3341] Model loading took 2.0 GiB memory and 27.2 seconds',
      '(APIServer pid=1) INFO 11-06 16:19:14 [api_server.py:1839] vLLM API server version 0.11.0',
    );
    expect(phasesOf('vllm', twice)).toEqual(['process-up@1', 'weight-load@2', 'process-up@3']);
  });
});

describe('progress', () => {
  it('reports weight shards and capture batches x/y, and keys the phase off rank 0', () => {
    const tracker = createStartTracker(getEngine('sglang'));
    const progress: string[] = [];
    for (const line of readLines('sglang-ready-01.log')) {
      for (const update of tracker.push(line, line.line).updates) {
        if (update.kind === 'progress')
          progress.push(`${update.phase} ${update.progress.done}/${update.progress.total}`);
        if (update.kind === 'phase' && update.progress !== null)
          progress.push(`${update.phase} ${update.progress.done}/${update.progress.total}`);
      }
    }
    expect(progress).toContain('weight-load 0/18');
    expect(progress).toContain('weight-load 18/18');
    expect(progress).toContain('graph-capture 0/23');
    expect(progress.at(-1)).toBe('graph-capture 23/23');
    // TP3's `KV Cache is allocated` (line 30) did not move the phase; TP0's at line 35 did.
    expect(phasesOf('sglang', readLines('sglang-ready-01.log'))).toContain('kv-cache@35');
  });

  it('counts the draft capture as its own phase, with the capture bar as its progress', () => {
    const tracker = createStartTracker(getEngine('sglang'));
    const lines = numbered(
      '[2025-09-05 20:49:00 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=20.00 GB',
      'Capturing batches (bs=1 avail_mem=19.00 GB): 100%|██████████| 4/4 [00:03<00:00,  1.2it/s]',
      '[2025-09-05 20:49:10 TP0] Capture cuda graph end. Time elapsed: 12.11 s. mem usage=0.5 GB. avail mem=19.0 GB.',
      '[2025-09-05 20:49:11 TP0] Capture draft cuda graph begin. This can take up to several minutes. avail mem=19.0 GB',
      'Capturing batches (bs=1 avail_mem=18.00 GB):  50%|█████     | 2/4 [00:30<00:30, 15.0s/it]',
    );
    const updates = lines.flatMap((line) => tracker.push(line, line.line * 1000).updates);
    expect(tracker.phase).toBe('draft-graph-capture');
    expect(tracker.progress).toEqual({ done: 2, total: 4 });
    expect(updates).toContainEqual({
      kind: 'progress',
      phase: 'draft-graph-capture',
      progress: { done: 2, total: 4 },
    });
  });

  it('collapses \\r redraws to the last state and splits a bar joined onto the next log line', () => {
    const tracker = createStartTracker(getEngine('sglang'));
    tracker.push({ line: 1, text: '[2025-01-01 00:00:00 TP0] Load weight begin. avail mem=70 GB' }, 0);
    const result = tracker.push(
      {
        line: 2,
        text: 'Loading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]\rLoading safetensors checkpoint shards:  50% Completed | 2/4 [00:10<00:10, 5.0s/it][2025-01-01 00:00:10 TP0] Load weight end. type=X, dtype=torch.bfloat16, avail mem=40 GB',
      },
      10,
    );
    expect(tracker.progress).toEqual({ done: 2, total: 4 });
    expect(result.normalized).toBe('Load weight end. type=X, dtype=torch.bfloat16, avail mem=40 GB');
  });
});

describe('stall signals', () => {
  it('does not count heartbeat lines, blank lines or non-advancing bar redraws as progress', () => {
    const vllm = createStartTracker(getEngine('vllm'));
    for (const line of readLines('vllm-hang-01.log')) expect(vllm.push(line, line.line).progress).toBe(false);
    const tgi = createStartTracker(getEngine('tgi'));
    for (const line of readLines('tgi-hang-01.log')) expect(tgi.push(line, line.line).progress).toBe(false);
    const sglang = createStartTracker(getEngine('sglang'));
    expect(sglang.push({ line: 1, text: '' }, 1).progress).toBe(false);
    expect(
      sglang.push(
        {
          line: 2,
          text: '[2026-05-22 23:27:33 DP2 TP2 EP2] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)',
        },
        2,
      ).progress,
    ).toBe(false);
    const bar = 'Capturing batches (avail_mem=27.97 GB):   0%|          | 0/34 [00:00<?, ?it/s]';
    expect(sglang.push({ line: 3, text: bar }, 3).progress).toBe(true);
    expect(sglang.push({ line: 4, text: bar }, 4).progress).toBe(false);
    expect(
      sglang.push({ line: 5, text: '[2025-06-26 09:47:18 DP2 TP2] Try DeepGEMM JIT Compiling for <gemm>' }, 5)
        .progress,
    ).toBe(true);
  });

  it('flags the ready line and the probe triggers', () => {
    const sglang = createStartTracker(getEngine('sglang'));
    const updates = readLines('sglang-ready-01.log').flatMap((line) => sglang.push(line, line.line).updates);
    expect(updates.filter((u) => u.kind === 'ready-line')).toHaveLength(1);
    const vllm = createStartTracker(getEngine('vllm'));
    const triggers = readLines('vllm-port-in-use-01.log').flatMap(
      (line) => vllm.push(line, line.line).updates,
    );
    expect(triggers.filter((u) => u.kind === 'probe-trigger')).toHaveLength(1);
  });

  it("follows TGI's JSON records (--json-output) to its ready line", () => {
    const tgi = createStartTracker(getEngine('tgi'));
    const record = (level: string, message: string) =>
      `{"timestamp":"2024-08-21T00:49:23.470388Z","level":"${level}","fields":{"message":"${message}"},"target":"text_generation_launcher"}`;
    const updates = numbered(
      record('INFO', 'Starting shard'),
      record('INFO', 'Warming up model'),
      record('INFO', 'Connected'),
    ).flatMap((line) => tgi.push(line, line.line).updates);
    const phases = updates.flatMap((u) => (u.kind === 'phase' ? [u.phase] : []));
    expect(phases).toEqual(['weight-load', 'warmup', 'ready']);
    expect(updates.filter((u) => u.kind === 'ready-line')).toHaveLength(1);
  });

  it('reports finished phase durations, and all of them for the history', () => {
    const tracker = createStartTracker(getEngine('sglang'));
    for (const line of readLines('sglang-ready-02.log')) tracker.push(line, line.line * 1000);
    expect(tracker.phaseDurations(40_000).map((p) => p.name)).toEqual([
      'process-up',
      'dist-init',
      'weight-load',
      'kv-cache',
      'graph-capture',
      'http-up',
    ]);
    expect(tracker.phaseDurations(40_000)[2]).toEqual({ name: 'weight-load', ms: 11_000 });
    expect(tracker.durationsUntil(40_000).at(-1)).toEqual({ name: 'ready', ms: 9_000 });
  });

  it('marks error and warning lines as notable', () => {
    const tracker = createStartTracker(getEngine('vllm'));
    const [update] = tracker.push(
      {
        line: 1,
        text: 'ValueError: Total number of attention heads (12) must be divisible by tensor parallel size (8).',
      },
      1,
    ).updates;
    expect(update).toEqual({
      kind: 'notable',
      level: 'error',
      text: 'ValueError: Total number of attention heads (12) must be divisible by tensor parallel size (8).',
    });
  });
});
