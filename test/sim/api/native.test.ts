import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  freePort,
  request,
  startSim,
  stopSim,
  waitFor,
  waitForLog,
  type SimProcess,
} from '../sim-process.ts';

interface Generated {
  text: string;
  meta_info: {
    completion_tokens: number;
    prompt_tokens: number;
    spec_verify_ct?: number;
    finish_reason: { type: string; length?: number } | null;
  };
}

let sim: SimProcess;
let port: number;

// SGLang with an EAGLE-3 draft: 8 draft tokens per step, a mean acceptance of 3.5, decode lines every 4 steps.
beforeAll(async () => {
  ensureBuilt();
  port = await freePort();
  sim = startSim(
    'sglang',
    [
      '--model-path',
      'org/target',
      '--port',
      String(port),
      '--enable-metrics',
      '--decode-log-interval',
      '4',
      '--speculative-algorithm',
      'EAGLE3',
      '--speculative-draft-model-path',
      '/ckpt/draft',
      '--speculative-num-steps',
      '7',
      '--speculative-eagle-topk',
      '1',
      '--speculative-num-draft-tokens',
      '8',
    ],
    { VIGIL_SIM_TOKENS_PER_S: '1000', VIGIL_SIM_TTFT_MS: '5', VIGIL_SIM_ACCEPT_LEN: '3.5' },
  );
  await waitForLog(sim, /ready to roll/);
});

afterAll(async () => {
  await stopSim(sim);
});

describe('SGLang /generate with a draft model', () => {
  it('reports spec_verify_ct so that completion_tokens / spec_verify_ct is the acceptance length', async () => {
    const reply = await request(port, '/generate', {
      body: { text: 'The capital city of France is', sampling_params: { max_new_tokens: 70 } },
    });
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body) as Generated;
    expect(body.text.length).toBeGreaterThan(0);
    expect(body.meta_info).toMatchObject({
      completion_tokens: 70,
      spec_verify_ct: 20,
      finish_reason: { type: 'length', length: 70 },
    });
    expect(body.meta_info.prompt_tokens).toBeGreaterThan(0);
  });

  it('streams cumulative text with meta_info, ending in [DONE]', async () => {
    const reply = await request(port, '/generate', {
      body: { text: 'x', sampling_params: { max_new_tokens: 9 }, stream: true },
    });
    const data: string[] = [];
    createParser({ onEvent: (event) => data.push(event.data) }).feed(reply.body);
    expect(data.at(-1)).toBe('[DONE]');
    const events = data.slice(0, -1).map((d) => JSON.parse(d) as Generated);
    const lengths = events.map((event) => event.text.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(events.at(-1)?.meta_info).toMatchObject({
      completion_tokens: 9,
      finish_reason: { type: 'length' },
    });
  });

  it('exposes the average acceptance length in /server_info and /metrics, and logs accept len lines', async () => {
    const info = JSON.parse((await request(port, '/server_info')).body) as Record<string, unknown>;
    expect(info).toMatchObject({
      model_path: 'org/target',
      speculative_algorithm: 'EAGLE3',
      speculative_num_draft_tokens: 8,
      version: '0.5.18',
    });
    const states = info['internal_states'] as { avg_spec_accept_length: number }[];
    // 70 tokens in 20 verify steps, then 9 tokens in 3 steps (3 + 4 + 2).
    expect(states[0]?.avg_spec_accept_length).toBeCloseTo(79 / 23, 6);
    expect((await request(port, '/get_server_info')).status).toBe(200);
    const metrics = (await request(port, '/metrics')).body;
    expect(metrics).toMatch(/^sglang:spec_accept_length\{model_name="org\/target"\} 3\.\d+$/m);
    expect(metrics).toMatch(/^sglang:generation_tokens_total\{model_name="org\/target"\} 79\.0$/m);
    const log = await waitForLog(
      sim,
      /Decode batch, #running-req: \d+, #token: \d+, token usage: 0\.00, accept len: 3\.50, accept rate: 0\.36, cuda graph: True, gen throughput \(token\/s\): [\d.]+, #queue-req: 0/,
    );
    expect(log).toMatch(/TP0\] Prefill batch\. #new-seq: 1/);
  });

  it('answers /model_info with the architecture it guessed from the path', async () => {
    const info = JSON.parse((await request(port, '/model_info')).body) as Record<string, unknown>;
    expect(info).toMatchObject({
      model_path: 'org/target',
      is_generation: true,
      architectures: ['LlamaForCausalLM'],
    });
  });

  it('rejects a /generate body without text', async () => {
    const reply = await request(port, '/generate', { body: { sampling_params: {} } });
    expect(reply.status).toBe(400);
    await waitFor('the access line', () => /"POST \/generate HTTP\/1\.1" 400 Bad Request/.test(sim.log()));
  });
});
