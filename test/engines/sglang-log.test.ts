import { describe, expect, it } from 'vitest';
import { createStartTracker } from '../../src/diagnose/tracker.ts';
import { adviseSglang } from '../../src/engines/sglang/advice.ts';
import { SGLANG_HEARTBEATS, SGLANG_PHASES, SGLANG_READY_LINE } from '../../src/engines/sglang/log.ts';
import { getEngine } from '../../src/engines/index.ts';

const phaseOf = (message: string): string | null =>
  SGLANG_PHASES.find((rule) => rule.pattern.test(message))?.phase ?? null;

describe('SGLang log shapes', () => {
  it('maps 2024 to 2026 line shapes to phases', () => {
    expect(phaseOf("server_args=ServerArgs(model_path='m', tp_size=8)")).toBe('process-up');
    expect(phaseOf('Init torch distributed ends. elapsed=2.36 s, mem usage=0.12 GB')).toBe('dist-init');
    expect(
      phaseOf('Load weight end. type=DeepseekV2ForCausalLM, dtype=torch.bfloat16, avail mem=22.01 GB'),
    ).toBe('weight-load');
    expect(phaseOf('Load weight end. elapsed=23.18 s, type=Qwen3ForCausalLM, dtype=torch.bfloat16')).toBe(
      'weight-load',
    );
    expect(phaseOf('KV Cache is allocated. K size: 2.82 GB, V size: 2.82 GB.')).toBe('kv-cache');
    expect(phaseOf('KV Cache is allocated. #tokens: 383872, KV size: 19.36 GB')).toBe('kv-cache');
    expect(phaseOf('Capture cuda graph begin. This can take up to several minutes. avail mem=11.16 GB')).toBe(
      'graph-capture',
    );
    expect(
      phaseOf('Capture draft cuda graph end. Time elapsed: 62.67 s. mem usage=0.21 GB. avail mem=15.31 GB.'),
    ).toBe('draft-graph-capture');
    expect(
      phaseOf('Compiling num tokens (num_tokens=8192): 100%|██████████| 52/52 [00:30<00:00,  1.7it/s]'),
    ).toBe('compile');
    expect(phaseOf('Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)')).toBe('http-up');
    expect(phaseOf('127.0.0.1:60032 - "POST /generate HTTP/1.1" 200 OK')).toBe('warmup');
    expect(phaseOf('The server is fired up and ready to roll!')).toBe('ready');
  });

  it('has a decisive ready line and a soft-watchdog heartbeat', () => {
    expect(SGLANG_READY_LINE.test('The server is fired up and ready to roll!')).toBe(true);
    expect(
      SGLANG_HEARTBEATS.some((p) =>
        p.test('Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)'),
      ),
    ).toBe(true);
    expect(
      SGLANG_HEARTBEATS.some((p) =>
        p.test('Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)'),
      ),
    ).toBe(false);
  });

  it('lists phases in startup order', () => {
    const tracker = createStartTracker(getEngine('sglang'));
    const order = [
      'process-up',
      'dist-init',
      'weight-load',
      'kv-cache',
      'compile',
      'graph-capture',
      'draft-graph-capture',
      'http-up',
      'warmup',
      'ready',
    ];
    expect([...new Set(SGLANG_PHASES.map((rule) => rule.phase))]).toEqual(order);
    expect(tracker.phase).toBeNull();
  });

  it('advises with SGLang flags', () => {
    const context = { phase: 'graph-capture' as const, tp: null };
    expect(adviseSglang('cuda-oom', {}, context).join(' ')).toContain('--cuda-graph-max-bs');
    expect(adviseSglang('port-in-use', { port: '30000' }, context).join(' ')).toContain('--port');
    expect(adviseSglang('warmup-failed', {}, context).join(' ')).toContain('no_proxy');
  });
});
