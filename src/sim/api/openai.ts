// The OpenAI-compatible endpoints both engines serve: /v1/chat/completions and /v1/completions, as JSON or as
// a server-sent-event stream ending in `data: [DONE]`, with real usage counts and max_tokens honoured.
import { simEngineOf } from '../../engines/sim.ts';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimConfig } from '../config.ts';
import type { SimSettings } from '../settings.ts';
import {
  countTokens,
  planGeneration,
  runGeneration,
  type GeneratedChunk,
  type GenerationPlan,
} from './generation.ts';
import { BadRequest, readCount, readJson, sendJson, startEvents } from './http.ts';
import type { ServingLog } from './serving-log.ts';
import type { ServingStats } from './stats.ts';

/** What every endpoint handler works with. */
export interface ApiContext {
  config: SimConfig;
  settings: SimSettings;
  stats: ServingStats;
  log: ServingLog;
  /** The server args as JSON, for an engine's server-info endpoint. */
  serverArgs: Record<string, unknown>;
  /** Unix seconds the server came up (the `created` of /v1/models). */
  created: number;
}

// Runs one request through the batch counters; `onChunk` sees every released chunk.
export const generate = async (
  api: ApiContext,
  plan: GenerationPlan,
  signal: AbortSignal,
  onChunk: (chunk: GeneratedChunk) => void,
): Promise<void> => {
  api.stats.startRequest(plan.promptTokens);
  api.log.prefill(plan.promptTokens, api.stats.running - 1);
  try {
    for await (const chunk of runGeneration(plan, signal)) {
      api.stats.recordStep(chunk.to - chunk.from);
      onChunk(chunk);
    }
  } finally {
    api.stats.finishRequest();
  }
};

// An AbortSignal that fires when the client goes away before the response is complete.
export const clientGone = (res: ServerResponse): AbortSignal => {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
};

const contentText = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const text = typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined;
      return typeof text === 'string' ? text : '';
    })
    .join('');
};

const checkModel = (api: ApiContext, body: Record<string, unknown>): void => {
  const model = body['model'];
  // Some engines reject a model name they do not serve; others ignore the field.
  if (
    simEngineOf(api.config.engine).checksModelName &&
    typeof model === 'string' &&
    model !== api.config.servedModelName
  ) {
    throw new BadRequest(`The model \`${model}\` does not exist.`, 404);
  }
};

const usageOf = (plan: GenerationPlan): Record<string, number> => ({
  prompt_tokens: plan.promptTokens,
  completion_tokens: plan.completionTokens,
  total_tokens: plan.promptTokens + plan.completionTokens,
});

type Kind = 'chat' | 'completion';

const promptTokensOf = (kind: Kind, body: Record<string, unknown>): number => {
  if (kind === 'chat') {
    const messages = body['messages'];
    if (!Array.isArray(messages) || messages.length === 0)
      throw new BadRequest('messages must be a non-empty list');
    // Each message costs its text plus the chat template's few role tokens.
    return messages.reduce<number>(
      (sum, m) => sum + countTokens(contentText((m as { content?: unknown }).content)) + 4,
      3,
    );
  }
  const prompt = body['prompt'];
  const text = Array.isArray(prompt)
    ? prompt.map(String).join('')
    : typeof prompt === 'string'
      ? prompt
      : null;
  if (text === null) throw new BadRequest('prompt must be a string or a list of strings');
  return countTokens(text);
};

// Handles /v1/chat/completions (`kind` chat) and /v1/completions (`kind` completion).
export const handleOpenAi = async (
  kind: Kind,
  req: IncomingMessage,
  res: ServerResponse,
  api: ApiContext,
): Promise<void> => {
  const body = await readJson(req);
  checkModel(api, body);
  const failure = api.settings.generationFail;
  if (failure === '500') throw new BadRequest('Internal server error: the simulated generation failed', 500);
  if (failure === 'hang') {
    await new Promise<void>((resolve) => res.once('close', resolve));
    return;
  }
  const plan = planGeneration({
    promptTokens: promptTokensOf(kind, body),
    maxTokens: readCount(body, 'max_completion_tokens', 'max_tokens'),
    emptyAnswer: failure === 'empty',
    settings: api.settings,
    speculative: api.config.speculative,
  });
  const id = `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-${randomUUID().replaceAll('-', '')}`;
  const head = {
    id,
    object: kind === 'chat' ? 'chat.completion' : 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: api.config.servedModelName,
  };
  const signal = clientGone(res);

  if (body['stream'] !== true) {
    let text = '';
    await generate(api, plan, signal, (chunk) => (text += chunk.text));
    const choice =
      kind === 'chat'
        ? {
            index: 0,
            message: { role: 'assistant', content: text },
            logprobs: null,
            finish_reason: plan.finishReason,
          }
        : { index: 0, text, logprobs: null, finish_reason: plan.finishReason };
    sendJson(res, 200, { ...head, choices: [choice], usage: usageOf(plan) });
    return;
  }

  const events = startEvents(res);
  const chunkHead = { ...head, object: kind === 'chat' ? 'chat.completion.chunk' : 'text_completion' };
  const choice = (text: string | null, finish: string | null): Record<string, unknown> =>
    kind === 'chat'
      ? { index: 0, delta: text === null ? {} : { content: text }, logprobs: null, finish_reason: finish }
      : { index: 0, text: text ?? '', logprobs: null, finish_reason: finish };
  if (kind === 'chat') {
    events.send({
      ...chunkHead,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
    });
  }
  await generate(api, plan, signal, (chunk) => {
    events.send({ ...chunkHead, choices: [choice(chunk.text, null)] });
  });
  if (signal.aborted) return;
  events.send({ ...chunkHead, choices: [choice(null, plan.finishReason)] });
  const options = body['stream_options'] as { include_usage?: unknown } | undefined;
  if (options?.include_usage === true) events.send({ ...chunkHead, choices: [], usage: usageOf(plan) });
  events.done();
};
