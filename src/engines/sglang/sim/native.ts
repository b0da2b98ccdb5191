// SGLang's own endpoints: /generate, /model_info and /server_info (docs/engines/facts.md).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { guessModelInfo } from '../../../sim/model-info.ts';
import { countTokens, planGeneration, type GenerationPlan } from '../../../sim/api/generation.ts';
import { BadRequest, readCount, readJson, sendJson, startEvents } from '../../../sim/api/http.ts';
import { clientGone, generate, type ApiContext } from '../../../sim/api/openai.ts';

export const SGLANG_VERSION = '0.5.18';
// SGLang's default max_new_tokens for /generate.
const DEFAULT_MAX_NEW_TOKENS = 128;
// An end-of-sequence token id, as SGLang reports `matched` for a stop.
const EOS_TOKEN_ID = 128009;

const metaInfo = (
  api: ApiContext,
  plan: GenerationPlan,
  id: string,
  started: number,
  done: boolean,
  released: number,
): Record<string, unknown> => {
  const meta: Record<string, unknown> = {
    id,
    finish_reason: done
      ? plan.finishReason === 'length'
        ? { type: 'length', length: plan.completionTokens }
        : { type: 'stop', matched: EOS_TOKEN_ID }
      : null,
    prompt_tokens: plan.promptTokens,
    weight_version: 'default',
    completion_tokens: released,
    cached_tokens: 0,
    e2e_latency: (Date.now() - started) / 1000,
  };
  if (api.config.speculative !== null) {
    // Verify steps so far: completion_tokens / spec_verify_ct is the request's acceptance length.
    let tokens = 0;
    let steps = 0;
    for (const step of plan.steps) {
      if (tokens >= released) break;
      tokens += step;
      steps++;
    }
    meta['spec_verify_ct'] = steps;
  }
  return meta;
};

// SGLang's native generation endpoint (one prompt, or a list of them without streaming).
export const handleGenerate = async (
  req: IncomingMessage,
  res: ServerResponse,
  api: ApiContext,
): Promise<void> => {
  const body = await readJson(req);
  const text = body['text'];
  const prompts = typeof text === 'string' ? [text] : Array.isArray(text) ? text.map(String) : null;
  if (prompts === null || prompts.length === 0)
    throw new BadRequest('text must be a string or a list of strings');
  const params = (body['sampling_params'] ?? {}) as Record<string, unknown>;
  const maxTokens = readCount(params, 'max_new_tokens') ?? DEFAULT_MAX_NEW_TOKENS;
  const signal = clientGone(res);
  const run = async (
    prompt: string,
    onText?: (meta: Record<string, unknown>, text: string) => void,
  ): Promise<Record<string, unknown>> => {
    const plan = planGeneration({
      promptTokens: countTokens(prompt),
      maxTokens,
      settings: api.settings,
      speculative: api.config.speculative,
    });
    const id = randomUUID().replaceAll('-', '');
    const started = Date.now();
    let out = '';
    let released = 0;
    await generate(api, plan, signal, (chunk) => {
      out += chunk.text;
      released = chunk.to;
      onText?.(metaInfo(api, plan, id, started, released === plan.completionTokens, released), out);
    });
    return { text: out, meta_info: metaInfo(api, plan, id, started, true, released) };
  };

  if (body['stream'] === true) {
    const events = startEvents(res);
    await run(prompts[0] ?? '', (meta, out) => {
      events.send({ text: out, meta_info: meta, index: 0 });
    });
    if (!signal.aborted) events.done();
    return;
  }
  const results = await Promise.all(prompts.map((prompt) => run(prompt)));
  sendJson(res, 200, typeof text === 'string' ? results[0] : results);
};

// SGLang's /model_info (and the older /get_model_info).
export const modelInfo = (api: ApiContext): Record<string, unknown> => {
  const info = guessModelInfo(api.config.modelPath);
  return {
    model_path: api.config.modelPath,
    tokenizer_path: api.config.modelPath,
    is_generation: true,
    preferred_sampling_params: null,
    weight_version: 'default',
    has_image_understanding: false,
    has_audio_understanding: false,
    model_type: info.modelType,
    architectures: [info.architecture],
  };
};

// SGLang's /server_info: the server args, one internal state per DP rank, and the version.
export const serverInfo = (api: ApiContext): Record<string, unknown> => {
  const state: Record<string, unknown> = {
    last_gen_throughput: api.stats.lastGenThroughput,
    memory_usage: { weight: 36.73, kvcache: 27.58, token_capacity: 903439, graph: 0.89 },
  };
  const accept = api.stats.avgAcceptLength;
  if (api.config.speculative !== null && accept !== null) state['avg_spec_accept_length'] = accept;
  return { ...api.serverArgs, internal_states: [state], version: SGLANG_VERSION };
};
