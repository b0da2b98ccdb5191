import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATURAL_REPLY_TOKENS, tokensText } from '../../../src/sim/api/generation.ts';
import {
  ensureBuilt,
  freePort,
  request,
  startSim,
  stopSim,
  waitForLog,
  type SimProcess,
} from '../sim-process.ts';

// Every `data:` payload of a server-sent-event body, in order.
const sseData = (body: string): string[] => {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  parser.feed(body);
  return data;
};

const KEY = 'sk-openai-test';
const auth = { authorization: `Bearer ${KEY}` };
let sim: SimProcess;
let port: number;

beforeAll(async () => {
  ensureBuilt();
  port = await freePort();
  sim = startSim('sglang', ['--model-path', 'org/model', '--port', String(port), '--api-key', KEY], {
    VIGIL_SIM_TOKENS_PER_S: '1000',
    VIGIL_SIM_TTFT_MS: '5',
  });
  await waitForLog(sim, /ready to roll/);
});

afterAll(async () => {
  await stopSim(sim);
});

describe('/v1/chat/completions', () => {
  it('answers JSON with max_tokens tokens, finish_reason length and real usage counts', async () => {
    const messages = [{ role: 'user', content: 'Say something about the weather today.' }];
    const reply = await request(port, '/v1/chat/completions', {
      body: { model: 'org/model', messages, max_tokens: 12 },
      headers: auth,
    });
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'org/model',
      choices: [
        { index: 0, message: { role: 'assistant', content: tokensText(0, 12) }, finish_reason: 'length' },
      ],
      usage: { completion_tokens: 12 },
    });
    const usage = body['usage'] as { prompt_tokens: number; total_tokens: number };
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + 12);
  });

  it('ends by itself with finish_reason stop when no limit is set', async () => {
    const reply = await request(port, '/v1/chat/completions', {
      body: { messages: [{ role: 'user', content: 'hi' }] },
      headers: auth,
    });
    expect(JSON.parse(reply.body)).toMatchObject({
      choices: [{ finish_reason: 'stop' }],
      usage: { completion_tokens: NATURAL_REPLY_TOKENS },
    });
  });

  it('streams role, content deltas, the finish chunk, a usage chunk and [DONE]', async () => {
    const reply = await request(port, '/v1/chat/completions', {
      body: {
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 7,
        stream: true,
        stream_options: { include_usage: true },
      },
      headers: auth,
    });
    expect(reply.status).toBe(200);
    const data = sseData(reply.body);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map(
      (d) =>
        JSON.parse(d) as {
          object: string;
          choices: { delta?: { role?: string; content?: string }; finish_reason: string | null }[];
          usage?: { completion_tokens: number };
        },
    );
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(content).toBe(tokensText(0, 7));
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('length');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 7 } });
  });

  it('takes at least the first-token delay plus one step per further token (lower bound only)', async () => {
    const started = Date.now();
    await request(port, '/v1/chat/completions', {
      body: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 },
      headers: auth,
    });
    // 5 ms + 99 steps of 1 ms; a busy machine can only make it slower.
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('rejects a request without messages, and one without the key', async () => {
    const bad = await request(port, '/v1/chat/completions', { body: { max_tokens: 3 }, headers: auth });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({
      object: 'error',
      code: 400,
      message: 'messages must be a non-empty list',
    });
    const anonymous = await request(port, '/v1/chat/completions', {
      body: { messages: [{ role: 'user', content: 'x' }] },
    });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toEqual({ error: 'Unauthorized' });
  });
});

describe('/v1/completions', () => {
  it('answers JSON and streams text chunks ending in [DONE]', async () => {
    const json = await request(port, '/v1/completions', {
      body: { prompt: 'Once upon a time', max_tokens: 5 },
      headers: auth,
    });
    expect(JSON.parse(json.body)).toMatchObject({
      object: 'text_completion',
      choices: [{ text: tokensText(0, 5), finish_reason: 'length' }],
      usage: { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
    });
    const stream = await request(port, '/v1/completions', {
      body: { prompt: 'x', max_tokens: 4, stream: true },
      headers: auth,
    });
    const data = sseData(stream.body);
    expect(data.at(-1)).toBe('[DONE]');
    const texts = data
      .slice(0, -1)
      .map((d) => (JSON.parse(d) as { choices: { text: string }[] }).choices[0]?.text ?? '');
    expect(texts.join('')).toBe(tokensText(0, 4));
  });

  it('logs each request as uvicorn and SGLang do: access lines and a Prefill batch line', () => {
    const log = sim.log();
    expect(log).toMatch(/\] INFO: {5}127\.0\.0\.1:\d+ - "POST \/v1\/completions HTTP\/1\.1" 200 OK/);
    expect(log).toMatch(
      /\] INFO: {5}127\.0\.0\.1:\d+ - "POST \/v1\/chat\/completions HTTP\/1\.1" 401 Unauthorized/,
    );
    expect(log).toMatch(/TP0\] Prefill batch\. #new-seq: 1, #new-token: 4, #cached-token: 0/);
  });
});
