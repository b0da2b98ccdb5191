import { readdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { quietCheckFor } from '../../src/diagnose/quiet-lines.ts';
import { createStartTracker } from '../../src/diagnose/tracker.ts';
import type { TrackLineResult } from '../../src/diagnose/types.ts';
import { getEngine } from '../../src/engines/index.ts';
import type { EngineId, EngineSpec } from '../../src/engines/types.ts';
import { normalizeLine } from '../../src/logs/normalize.ts';
import type { RawLine } from '../../src/logs/types.ts';
import { FIXTURE_DIR, readLines } from './fixture-logs.ts';

const ENGINES: EngineId[] = ['sglang', 'vllm', 'tgi', 'generic'];

// Lines chosen to sit on the fast path's edges: blank and wrapper-only lines, ANSI codes, redraws, bars, heartbeats
// that do and do not match, phase lines before and after their phase, a restart, levels and errors.
const EDGE_LINES = [
  '',
  '   ',
  '\t',
  '2025-01-01T00:00:00.123456789Z',
  '2025-01-01T00:00:00Z ',
  '2025-01-01T00:00:00.5Z',
  '2025-01-01T00:00:00+02:00',
  '2025-01-01T00:00:00.25-0130',
  '2025-01-01T00:00:00.25-0130 x',
  '[2025-01-01T00:00:00.5Z]',
  '[2025-01-01T00:00:00+02:00]',
  'count: 0',
  'ratio 1:2.5',
  'a [b]:',
  'weird Z]',
  '2025-02-04 21:29:42',
  '[2025-01-01T00:00:00Z]',
  'vllm-1  | ',
  '[2025-09-11 10:26:02 TP0] ',
  '(APIServer pid=1) INFO 11-24 11:44:17 [api_server.py:1]',
  '[rank3]:',
  '[rank3]:[W421 04:13:43.426633564 ProcessGroupGloo.cpp:143]',
  'INFO:     ',
  'just a message',
  'a message that ends in a digit 42',
  'ends in a bracket [x]',
  'ends with a colon:',
  'Zed at the end Z',
  '\u001b[32m[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=77.43 GB\u001b[0m',
  '[2025-09-11 10:25:43 TP0] Load\u001b[0m weight end.',
  'progress\rLoading safetensors checkpoint shards:  50% Completed | 1/2 [04:38<04:38, 278.99s/it]',
  'Capturing batches (bs=1 avail_mem=10.28 GB): 100%|██████████| 23/23 [00:16<00:00,  1.42it/s]',
  '[2025-09-11 10:25:40] server_args=ServerArgs(model_path="m", tp_size=2)',
  '[2025-09-11 10:25:41 TP0] Init torch distributed begin.',
  '[2025-09-11 10:25:41 TP1] Init torch distributed begin.',
  '[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=77.43 GB',
  '[2025-09-11 10:25:43 TP0] Init torch distributed ends. mem usage=1.25 GB',
  '[2025-09-11 10:26:02] INFO:     127.0.0.1:41026 - "GET /health HTTP/1.1" 503 Service Unavailable',
  '[2025-09-11 10:26:02] INFO:     127.0.0.1:41026 - "GET /health HTTP/1.1" 200 OK',
  '[2025-09-11 10:26:02] INFO:     127.0.0.1:60028 - "GET /get_model_info HTTP/1.1" 200 OK',
  '127.0.0.1:60028 - "POST /generate HTTP/1.1" 200 OK',
  '[2026-05-22 23:27:33 DP2 TP2 EP2] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)',
  '(APIServer pid=300606) DEBUG 09-02 17:29:06 [utils.py:777] Waiting for 1 local, 0 remote core engine proc(s) to start.',
  'Waiting for shard to be ready... rank=0',
  '[2025-09-11 10:26:05] The server is fired up and ready to roll!',
  '[2025-09-11 10:26:01] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)',
  '(APIServer pid=1) INFO 11-24 11:44:17 [launcher.py:1] Application startup complete.',
  '2024-03-06T17:53:31.052444Z  INFO text_generation_router: router/src/main.rs:1: Connected',
  '(APIServer pid=1) WARNING 11-24 11:44:17 [config.py:1] something to know',
  '2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: Shard process was signaled',
  'RuntimeError: CUDA error: out of memory',
  'Traceback (most recent call last):',
  'launch_server.py: error: unrecognized arguments: --foo',
  '[2025-09-11 10:27:40] server_args=ServerArgs(model_path="m", tp_size=2)',
  '[2025-09-11 10:27:41 TP0] Init torch distributed begin.',
  '(EngineCore_DP0 pid=441) INFO 11-24 11:44:17 [gpu_worker.py:348] Available KV cache memory: 33.31 GiB',
  'INFO 04-27 10:13:05 llm_engine.py:275] # GPU blocks: 0, # CPU blocks: 256',
  'Args { model_id: "m" }',
  '2024-03-06T17:53:31Z  INFO text_generation_launcher: Starting shard rank=0',
];

// The full way the fast path stands in for: normalise, then track.
const compare = (
  engine: EngineSpec,
  lines: readonly RawLine[],
  normalized = lines.map((line) => normalizeLine(line.text)),
): number => {
  const fast = createStartTracker(engine);
  const full = createStartTracker(engine);
  let quiet = 0;
  lines.forEach((line, i) => {
    const a: TrackLineResult = fast.push(line, i * 10);
    const b = full.track(line, normalized[i] ?? normalizeLine(line.text), i * 10);
    // A strict comparison first, field by field (most lines have no updates): expect() on each of the corpus's lines,
    // or a deep comparison of a fresh object per line, costs seconds.
    const same =
      a.progress === b.progress &&
      a.normalized === b.normalized &&
      (a.updates.length === 0 ? b.updates.length === 0 : isDeepStrictEqual(a.updates, b.updates));
    if (!same)
      expect({ updates: a.updates, progress: a.progress, normalized: a.normalized }, line.text).toEqual({
        updates: b.updates,
        progress: b.progress,
        normalized: b.normalized,
      });
    if (a.updates.length === 0 && Object.isFrozen(a.updates)) quiet++;
  });
  expect(fast.phaseMarks()).toEqual(full.phaseMarks());
  return quiet;
};

describe('the tracker fast path', () => {
  it('is built for every engine (each rule needs a literal)', () => {
    for (const id of ENGINES) expect(quietCheckFor(getEngine(id)), id).not.toBeNull();
  });

  it("gives what normalising and tracking gives, on every fixture log for its engine and another's", () => {
    let quiet = 0;
    let total = 0;
    const files = readdirSync(FIXTURE_DIR).filter((name) => name.endsWith('.log'));
    files.forEach((file, i) => {
      const lines = readLines(file);
      // Normalising does not depend on the engine: once per file.
      const normalized = lines.map((line) => normalizeLine(line.text));
      // The log's own engine, and in turn each other one (a log is tracked for every engine until its own is known):
      // across the corpus every engine's fast path meets every other engine's lines.
      const own = ENGINES.find((id) => file.startsWith(`${id}-`)) ?? 'generic';
      const others = ENGINES.filter((id) => id !== own);
      const engines = [own, others[i % others.length] ?? 'generic'];
      total += lines.length * engines.length;
      for (const id of engines) quiet += compare(getEngine(id), lines, normalized);
    });
    // Most lines take the fast path (the comparison would prove little otherwise).
    expect(quiet / total).toBeGreaterThan(0.5);
  });

  it('gives what normalising and tracking gives on edge lines, in order and shuffled', () => {
    const lines = EDGE_LINES.map((text, i) => ({ line: i + 1, text }));
    let seed = 3;
    const shuffled = [...lines].sort(() => ((seed = (seed * 16807) % 2147483647) % 3) - 1);
    for (const id of ENGINES) {
      compare(getEngine(id), lines);
      compare(getEngine(id), shuffled);
    }
  });

  it('still takes the full way for a phase line the start can enter, and skips it once the phase is past', () => {
    const check = quietCheckFor(getEngine('sglang'));
    const line = '[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=77.43 GB';
    expect(check?.(line, () => true)).toBe(false);
    expect(check?.(line, () => false)).toBe(true);
  });

  it('tests heartbeat patterns on the raw line: a 503 health check goes the full way, a 200 one does not', () => {
    const check = quietCheckFor(getEngine('sglang'));
    const health = (status: string): string =>
      `[2025-09-11 10:26:02] INFO:     127.0.0.1:41026 - "GET /health HTTP/1.1" ${status}`;
    expect(check?.(health('503 Service Unavailable'), () => false)).toBe(false);
    expect(check?.(health('200 OK'), () => false)).toBe(true);
  });

  it('sends level, error, ANSI, redraw and bar lines the full way', () => {
    const check = quietCheckFor(getEngine('vllm'));
    for (const line of [
      'WARNING 11-24 11:44:17 [x.py:1] careful',
      'ValueError: bad',
      '\u001b[31mred\u001b[0m',
      'a\rb',
      'x 50%',
    ])
      expect(
        check?.(line, () => false),
        line,
      ).toBe(false);
  });

  it('has no fast path for an engine whose rule needs no literal', () => {
    const spec: EngineSpec = { ...getEngine('sglang'), heartbeatLines: [/^\d+$/] };
    expect(quietCheckFor(spec)).toBeNull();
    const tracker = createStartTracker(spec);
    expect(tracker.push({ line: 1, text: '12345' }, 0).progress).toBe(false);
    expect(tracker.push({ line: 2, text: 'hello' }, 0).progress).toBe(true);
  });
});
