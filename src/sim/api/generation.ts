// How a simulated request generates: token counts, finish reason, and the timing of each decode step.
// With a draft model each verify step releases several tokens (the acceptance length on average), so the same
// step time yields that many times the token rate: what speculative decoding buys, in numbers a benchmark sees.
import { setTimeout as sleep } from 'node:timers/promises';
import type { SpeculativeConfig } from '../config.ts';
import type { SimSettings } from '../settings.ts';

/** Tokens a reply has when the request sets no limit (it then ends with finish_reason "stop"). */
export const NATURAL_REPLY_TOKENS = 64;

// The reply text: these sentences as tokens, over and over (a reply of N tokens is the first N of them).
const SENTENCES = [
  'The simulated server answers with fixed text, so clients can measure latency, throughput and streaming.',
  ' Each token arrives at the configured rate, after the configured time to first token.',
  ' With a draft model, every verify step releases several tokens at once.',
];
const TOKENS = SENTENCES.flatMap((sentence) => sentence.match(/\s*[\w-]+|\s*[^\w\s]/g) ?? []);

export interface GenerationPlan {
  promptTokens: number;
  completionTokens: number;
  finishReason: 'stop' | 'length';
  /** Tokens released by each decode step, in order (all 1 without a draft model). */
  steps: number[];
  ttftMs: number;
  stepMs: number;
}

// A rough token count for prompt text (about four characters per token, at least one).
export const countTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

// The i-th token of every simulated reply.
export const tokenText = (i: number): string => TOKENS[i % TOKENS.length] ?? '';

// The text of tokens [from, to).
export const tokensText = (from: number, to: number): string => {
  let text = '';
  for (let i = from; i < to; i++) text += tokenText(i);
  return text;
};

// Splits `tokens` into verify steps whose sizes average `acceptLength` (floor/ceil alternation, deterministic).
const splitSteps = (tokens: number, acceptLength: number, maxPerStep: number): number[] => {
  const mean = Math.min(Math.max(acceptLength, 1), Math.max(maxPerStep, 1));
  const steps: number[] = [];
  let released = 0;
  for (let i = 0; released < tokens; i++) {
    const size = Math.max(1, Math.floor((i + 1) * mean) - Math.floor(i * mean));
    const step = Math.min(size, tokens - released);
    steps.push(step);
    released += step;
  }
  return steps;
};

// Plans one request: `maxTokens` null means the model stops by itself. `emptyAnswer`: the model's first token is
// its end-of-sequence token, as with a broken chat template; engines count that token in `usage` (1 completion
// token), show no text for it, and report finish_reason `stop`.
export const planGeneration = (options: {
  promptTokens: number;
  maxTokens: number | null;
  settings: SimSettings;
  speculative: SpeculativeConfig | null;
  emptyAnswer?: boolean;
}): GenerationPlan => {
  const { settings, speculative } = options;
  if (options.emptyAnswer === true)
    return {
      promptTokens: options.promptTokens,
      completionTokens: 1,
      finishReason: 'stop',
      steps: [],
      ttftMs: settings.ttftMs,
      stepMs: 1000 / settings.tokensPerSecond,
    };
  const completionTokens = options.maxTokens ?? NATURAL_REPLY_TOKENS;
  const steps =
    speculative === null
      ? Array.from({ length: completionTokens }, () => 1)
      : splitSteps(completionTokens, settings.acceptLength, speculative.numDraftTokens);
  return {
    promptTokens: options.promptTokens,
    completionTokens,
    finishReason: options.maxTokens === null ? 'stop' : 'length',
    steps,
    ttftMs: settings.ttftMs,
    stepMs: 1000 / settings.tokensPerSecond,
  };
};

/** One released chunk: tokens [from, to). */
export interface GeneratedChunk {
  from: number;
  to: number;
  text: string;
}

// Releases the plan's tokens on its schedule; stops early (without throwing) when `signal` aborts.
export async function* runGeneration(
  plan: GenerationPlan,
  signal: AbortSignal,
): AsyncGenerator<GeneratedChunk> {
  let released = 0;
  const started = performance.now();
  // Decoding starts when the first token is out, as in an engine: a late prefill moves every later step with it.
  let decodeFrom = started + plan.ttftMs;
  // No visible token: the prefill still runs before the engine can see its answer is over.
  if (plan.steps.length === 0) {
    try {
      await sleep(plan.ttftMs, undefined, { signal });
    } catch {
      return;
    }
  }
  for (const [i, step] of plan.steps.entries()) {
    // Step i is due at i * stepMs after the first token; waiting for the due time keeps the rate exact.
    const due = decodeFrom + i * plan.stepMs;
    const wait = due - performance.now();
    try {
      if (wait > 0) await sleep(wait, undefined, { signal });
    } catch {
      return;
    }
    if (signal.aborted) return;
    if (i === 0) decodeFrom = performance.now();
    yield { from: released, to: released + step, text: tokensText(released, released + step) };
    released += step;
  }
}
