import { afterEach, describe, expect, it } from 'vitest';
import { sglangSpec } from '../../src/engines/sglang/spec.ts';
import { vllmSpec } from '../../src/engines/vllm/spec.ts';
import { syntheticPrompts } from '../../src/bench/prompts.ts';
import { runBench } from '../../src/bench/run.ts';
import { cleanUpSims, DRAFTER_ARGS, readySim, VLLM_DRAFTER_ARGS } from './sims.ts';

afterEach(cleanUpSims);

describe('SGLang acceptance readers', () => {
  it('reads internal_states[0].avg_spec_accept_length from /server_info', () => {
    const after = sglangSpec.parse(JSON.stringify({ internal_states: [{ avg_spec_accept_length: 2.95 }] }));
    expect(sglangSpec.acceptance(null, after ?? {})).toEqual({
      accept_length: 2.95,
      source: 'sglang /server_info',
    });
  });

  it('knows an SGLang answer without a drafter from another server', () => {
    expect(sglangSpec.parse(JSON.stringify({ internal_states: [{ last_gen_throughput: 1 }] }))).toEqual({});
    expect(sglangSpec.acceptance(null, {})).toBeNull();
    expect(sglangSpec.parse('{"version": "0.6"}')).toBeNull();
    expect(sglangSpec.parse('not json')).toBeNull();
  });

  it('computes per-request acceptance as completion_tokens / spec_verify_ct', () => {
    const per = sglangSpec.perRequest;
    expect(per?.acceptLength({ meta_info: { completion_tokens: 30, spec_verify_ct: 10 } })).toBe(3);
    expect(per?.acceptLength({ meta_info: { completion_tokens: 30 } })).toBeNull();
  });
});

const metrics = (accepted: number, drafts: number, perPos: number[]): string =>
  [
    '# TYPE vllm:spec_decode_num_drafts_total counter',
    `vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} ${String(drafts)}`,
    `vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} ${String(drafts * 3)}`,
    `vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} ${String(accepted)}`,
    ...perPos.map(
      (n, p) =>
        `vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="${String(p)}"} ${String(n)}`,
    ),
  ].join('\n');

describe('vLLM acceptance reader', () => {
  it('is 1 + Δaccepted / Δdrafts over the run, with per-position rates', () => {
    const before = vllmSpec.parse(metrics(100, 100, [60, 30, 10]));
    const after = vllmSpec.parse(metrics(100 + 195, 100 + 100, [60 + 90, 30 + 70, 10 + 35]));
    expect(vllmSpec.acceptance(before, after ?? {})).toEqual({
      accept_length: 2.95,
      source: 'vllm /metrics',
      per_position: [0.9, 0.7, 0.35],
    });
  });

  it('sums engines, and says nothing without drafts in the run', () => {
    const twoEngines = `${metrics(10, 10, [])}\n${metrics(10, 10, []).replaceAll('engine="0"', 'engine="1"')}`;
    expect(vllmSpec.parse(twoEngines)).toMatchObject({ 'vllm:spec_decode_num_drafts_total': 20 });
    const same = vllmSpec.parse(metrics(10, 10, []));
    expect(vllmSpec.acceptance(same, same ?? {})).toBeNull();
    expect(vllmSpec.parse('sglang:num_running_reqs 1')).toBeNull();
  });
});

describe('acceptance read from the simulators end to end', () => {
  const bench = (url: string) =>
    runBench({
      url: new URL(url),
      prompts: syntheticPrompts(8, 32, 30, 1),
      mode: { kind: 'closed', concurrency: 2 },
      stop: { requests: 8 },
      warmup: 0,
      stream: true,
      timeoutMs: 30_000,
      blockRequests: 8,
      seed: 1,
    });
  const env = { VIGIL_SIM_ACCEPT_LEN: '3', VIGIL_SIM_TTFT_MS: '5', VIGIL_SIM_TOKENS_PER_S: '400' };

  it('SGLang with a drafter: /server_info and /generate both within 2% of the set length', async () => {
    const { url } = await readySim('sglang', DRAFTER_ARGS, env);
    const result = await bench(url);
    const spec = result.sides[0]?.spec;
    expect(result.sides[0]?.engine).toBe('sglang');
    expect(spec?.source).toBe('sglang /server_info');
    expect(Math.abs((spec?.accept_length ?? 0) - 3) / 3).toBeLessThan(0.02);
    expect(Math.abs((spec?.per_request_accept_length ?? 0) - 3) / 3).toBeLessThan(0.02);
  });

  it('vLLM with a drafter: /metrics counters over the run within 2%, per position too', async () => {
    const { url } = await readySim('vllm', VLLM_DRAFTER_ARGS, env);
    const result = await bench(url);
    const spec = result.sides[0]?.spec;
    expect(result.sides[0]?.engine).toBe('vllm');
    expect(spec?.source).toBe('vllm /metrics');
    expect(Math.abs((spec?.accept_length ?? 0) - 3) / 3).toBeLessThan(0.02);
    // Steps of three tokens accept the drafts at positions 0 and 1, never 2.
    expect(spec?.per_position).toEqual([1, 1, 0]);
  });

  it('reports no acceptance for servers without a drafter', async () => {
    const [sglang, vllm] = await Promise.all([readySim('sglang', [], env), readySim('vllm', [], env)]);
    for (const url of [sglang.url, vllm.url]) {
      const result = await bench(url);
      expect(result.sides[0]?.spec).toBeNull();
      expect(result.sides[0]?.errors.total).toBe(0);
    }
  });
});
