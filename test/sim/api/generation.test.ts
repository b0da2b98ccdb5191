import { describe, expect, it } from 'vitest';
import {
  NATURAL_REPLY_TOKENS,
  planGeneration,
  runGeneration,
  tokensText,
} from '../../../src/sim/api/generation.ts';
import { readSimSettings } from '../../../src/sim/settings.ts';

const settings = readSimSettings({
  VIGIL_SIM_TOKENS_PER_S: '1000',
  VIGIL_SIM_TTFT_MS: '1',
  VIGIL_SIM_ACCEPT_LEN: '3.2',
});
const draft = { algorithm: 'EAGLE3', draftModelPath: 'd', numSteps: 3, eagleTopk: 1, numDraftTokens: 4 };

describe('planGeneration', () => {
  it('releases one token per step without a draft model, max_tokens of them', () => {
    const plan = planGeneration({ promptTokens: 5, maxTokens: 10, settings, speculative: null });
    expect(plan).toMatchObject({ completionTokens: 10, finishReason: 'length', stepMs: 1, ttftMs: 1 });
    expect(plan.steps).toEqual(Array.from({ length: 10 }, () => 1));
  });

  it('stops by itself after the natural reply length when no limit is set', () => {
    const plan = planGeneration({ promptTokens: 5, maxTokens: null, settings, speculative: null });
    expect(plan).toMatchObject({ completionTokens: NATURAL_REPLY_TOKENS, finishReason: 'stop' });
  });

  it('plans an empty answer as engines report one: one hidden stop token, finish_reason stop', async () => {
    const plan = planGeneration({
      promptTokens: 5,
      maxTokens: 16,
      settings: readSimSettings({ VIGIL_SIM_TTFT_MS: '30' }),
      speculative: null,
      emptyAnswer: true,
    });
    expect(plan).toMatchObject({ completionTokens: 1, finishReason: 'stop', steps: [] });
    const started = performance.now();
    const chunks = [];
    for await (const chunk of runGeneration(plan, new AbortController().signal)) chunks.push(chunk);
    expect(chunks).toEqual([]);
    // The prefill still takes its time before the (empty) answer ends; lower bound only.
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('groups tokens into verify steps whose mean is the acceptance length', () => {
    const plan = planGeneration({ promptTokens: 5, maxTokens: 160, settings, speculative: draft });
    expect(plan.steps.reduce((a, b) => a + b, 0)).toBe(160);
    expect(160 / plan.steps.length).toBeCloseTo(3.2, 1);
    expect(Math.max(...plan.steps)).toBeLessThanOrEqual(4);
  });

  it('caps the acceptance length at the draft tokens per step', () => {
    const greedy = readSimSettings({ VIGIL_SIM_ACCEPT_LEN: '9' });
    const plan = planGeneration({ promptTokens: 1, maxTokens: 40, settings: greedy, speculative: draft });
    expect(plan.steps).toEqual(Array.from({ length: 10 }, () => 4));
  });
});

describe('runGeneration', () => {
  it('releases every token in order and stops early when aborted', async () => {
    const plan = planGeneration({ promptTokens: 1, maxTokens: 12, settings, speculative: draft });
    const chunks = [];
    for await (const chunk of runGeneration(plan, new AbortController().signal)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(tokensText(0, 12));
    expect(chunks.at(-1)?.to).toBe(12);

    const controller = new AbortController();
    const slow = planGeneration({
      promptTokens: 1,
      maxTokens: 50,
      settings: readSimSettings({ VIGIL_SIM_TOKENS_PER_S: '20' }),
      speculative: null,
    });
    const seen = [];
    for await (const chunk of runGeneration(slow, controller.signal)) {
      seen.push(chunk);
      controller.abort();
    }
    expect(seen).toHaveLength(1);
  });
});
