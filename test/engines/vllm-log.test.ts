import { describe, expect, it } from 'vitest';
import { adviseVllm } from '../../src/engines/vllm/advice.ts';
import { VLLM_HEARTBEATS, VLLM_PHASES, VLLM_STARTED_LINE } from '../../src/engines/vllm/log.ts';

const phaseOf = (message: string): string | null =>
  VLLM_PHASES.find((rule) => rule.pattern.test(message))?.phase ?? null;

describe('vLLM log shapes', () => {
  it('maps V1 and V0 (≤0.7) shapes to phases', () => {
    expect(phaseOf('vLLM API server version 0.11.0')).toBe('process-up');
    expect(phaseOf('Initializing an LLM engine (v0.4.2) with config: model=m')).toBe('process-up');
    expect(phaseOf('rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0')).toBe(
      'dist-init',
    );
    expect(phaseOf('Starting to load model Qwen/Qwen3-8B...')).toBe('weight-load');
    expect(phaseOf('Loading model weights took 19.9073 GB')).toBe('weight-load');
    expect(
      phaseOf(
        "Using cache directory: /root/.cache/vllm/torch_compile_cache/x/rank_0_0/backbone for vLLM's torch.compile",
      ),
    ).toBe('compile');
    expect(
      phaseOf('Directly load the compiled graph(s) for dynamic shape from the cache, took 2.717 s'),
    ).toBe('compile');
    expect(phaseOf('# GPU blocks: 10039, # CPU blocks: 1310')).toBe('kv-cache');
    expect(phaseOf('Memory profiling takes 34.26 seconds')).toBe('kv-cache');
    expect(
      phaseOf(
        'Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static.',
      ),
    ).toBe('graph-capture');
    expect(phaseOf('Graph capturing finished in 32 secs.')).toBe('graph-capture');
    expect(phaseOf('init engine (profile, create kv cache, warmup model) took 25.99 seconds')).toBe('warmup');
    expect(phaseOf('Starting vLLM API server 0 on http://0.0.0.0:8000')).toBe('http-up');
    expect(phaseOf('Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)')).toBe('http-up');
  });

  it('treats the engine-core wait and the shared-memory notice as heartbeats, and startup complete as a probe hint only', () => {
    expect(
      VLLM_HEARTBEATS.some((p) => p.test('Waiting for 1 local, 0 remote core engine proc(s) to start.')),
    ).toBe(true);
    expect(
      VLLM_HEARTBEATS.some((p) =>
        p.test(
          'No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging.',
        ),
      ),
    ).toBe(true);
    expect(VLLM_STARTED_LINE.test('Application startup complete.')).toBe(true);
  });

  it('advises with vLLM flags', () => {
    const context = { phase: 'kv-cache' as const, tp: null };
    expect(adviseVllm('cuda-oom', { kind: 'kv-cache' }, context).join(' ')).toContain(
      '--gpu-memory-utilization',
    );
    expect(adviseVllm('unknown-flag', { flag: '--mem-fraction-static 0.8' }, context).join(' ')).toContain(
      '--gpu-memory-utilization',
    );
    expect(adviseVllm('hang', {}, { phase: 'compile', tp: null }).join(' ')).toContain('--enforce-eager');
  });
});
