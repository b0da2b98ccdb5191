import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  estimateRemaining,
  loadStarts,
  profileOf,
  recordStart,
  type RecordedStart,
} from '../../src/state/history.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-history-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sglang = (argv: string[], host = 'local') => profileOf({ engine: 'sglang', argv, host });

describe('profileOf', () => {
  it('keys on engine, model, start-time flags and host, not on ports or secrets', () => {
    const base = sglang(['--model-path', '/m/qwen', '--tp', '8', '--port', '30000']);
    expect(sglang(['--port', '31000', '--tp=8', '--model-path=/m/qwen', '--api-key', 'secret']).key).toBe(
      base.key,
    );
    expect(sglang(['--model-path', '/m/qwen', '--tp', '4']).key).not.toBe(base.key);
    expect(sglang(['--model-path', '/m/other', '--tp', '8']).key).not.toBe(base.key);
    expect(sglang(['--model-path', '/m/qwen', '--tp', '8'], 'gpu-host').key).not.toBe(base.key);
    expect(
      profileOf({ engine: 'vllm', argv: ['--model-path', '/m/qwen', '--tp', '8'], host: 'local' }).key,
    ).not.toBe(base.key);
    expect(base.label).toBe('sglang /m/qwen --tp=8 @local');
    expect(base.label).not.toContain('secret');
  });

  it("reads vLLM's positional model", () => {
    expect(
      profileOf({ engine: 'vllm', argv: ['serve', 'Qwen/Qwen3-8B', '-tp', '2'], host: 'local' }).label,
    ).toBe('vllm Qwen/Qwen3-8B -tp=2 @local');
  });
});

describe('recordStart and loadStarts', () => {
  it('stores phase durations per profile in a 0600 file under the state directory', async () => {
    const profile = sglang(['--model-path', '/m/qwen']);
    expect(await loadStarts(profile, { dir })).toEqual([]);
    await recordStart(profile, [{ name: 'weight-load', ms: 1000.4 }], {
      dir,
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(await loadStarts(profile, { dir })).toEqual([
      { at: '2026-01-01T00:00:00.000Z', phases: [{ name: 'weight-load', ms: 1000 }] },
    ]);
    expect(statSync(join(dir, 'history.json')).mode & 0o777).toBe(0o600);
    expect(await loadStarts(sglang(['--model-path', '/m/other']), { dir })).toEqual([]);
  });

  it('keeps the last 10 starts of a profile', async () => {
    const profile = sglang(['--model-path', '/m/qwen']);
    for (let i = 1; i <= 12; i++) await recordStart(profile, [{ name: 'weight-load', ms: i }], { dir });
    const starts = await loadStarts(profile, { dir });
    expect(starts.map((s) => s.phases[0]?.ms)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('treats a damaged file as no history', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'history.json'), '{not json');
    const profile = sglang(['--model-path', '/m/qwen']);
    expect(await loadStarts(profile, { dir })).toEqual([]);
    await recordStart(profile, [{ name: 'dist-init', ms: 5 }], { dir });
    expect(JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8'))).toMatchObject({ version: 1 });
  });
});

describe('estimateRemaining', () => {
  const start = (weights: number, capture: number, warmup: number): RecordedStart => ({
    at: '2026-01-01T00:00:00.000Z',
    phases: [
      { name: 'dist-init', ms: 3000 },
      { name: 'weight-load', ms: weights },
      { name: 'graph-capture', ms: capture },
      { name: 'warmup', ms: warmup },
    ],
  });

  it('never invents an ETA without history', () => {
    expect(estimateRemaining([], 'weight-load', 0)).toBeNull();
    expect(estimateRemaining([start(1, 1, 1)], 'draft-graph-capture', 0)).toBeNull();
  });

  it('takes the median of the rest of the phase plus the later phases', () => {
    const starts = [start(60_000, 20_000, 5000), start(90_000, 20_000, 5000), start(70_000, 30_000, 5000)];
    // Remaining in weight-load after 10 s: 50+25, 80+25, 60+35 → median 95 s.
    expect(estimateRemaining(starts, 'weight-load', 10_000)).toEqual({
      ms: 95_000,
      basis: 'median of 3 earlier starts',
    });
    // A phase running longer than before counts as about to end.
    expect(estimateRemaining(starts, 'graph-capture', 60_000)).toEqual({
      ms: 5000,
      basis: 'median of 3 earlier starts',
    });
    expect(estimateRemaining([start(1000, 1000, 1000)], 'warmup', 0)?.basis).toBe(
      'median of 1 earlier start',
    );
  });
});
