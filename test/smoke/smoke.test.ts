import { afterEach, describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';
import { freePort } from '../helpers/ports.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';
import { runMain } from '../helpers/main.ts';
import { cleanUpSims, readySim } from '../bench/sims.ts';

afterEach(async () => {
  await cleanUpSims();
  await killTrackedSessions();
  await removeTempDirs();
});

const FAST = { VIGIL_SIM_TTFT_MS: '5', VIGIL_SIM_TOKENS_PER_S: '500' };

describe('vigil smoke', () => {
  it('passes on a healthy SGLang simulator: /health_generate, TTFT and tokens from usage', async () => {
    const { url } = await readySim('sglang', [], FAST);
    const r = await runVigil(['smoke', url, '--output', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ ok: true, engine: 'sglang', tokens: 16, model: 'org/model' });
    expect(report['health_generate']).toMatchObject({ path: '/health_generate', status: 200 });
    expect(report['ttft_ms']).toBeGreaterThan(0);
  });

  it.each([
    ['500', /answered HTTP 500/, /POST \/v1\/chat\/completions: HTTP 500: .*simulated generation failed/],
    [
      'empty',
      /empty answer/,
      /POST \/v1\/chat\/completions: HTTP 200: \(no text\), finish_reason stop, 1 completion tokens/,
    ],
  ])(
    'fails with exit 7 and the response as evidence when generation gives %s',
    async (fail, summary, evidence) => {
      const { url } = await readySim('vllm', [], { ...FAST, VIGIL_SIM_GENERATION_FAIL: fail });
      const r = await runVigil(['smoke', url]);
      expect(r.code).toBe(7);
      expect(r.stdout).toMatch(summary);
      expect(r.stdout).toMatch(evidence);
    },
  );

  it('sees an empty answer as engines send one: no text, finish_reason stop, the stop token in usage', async () => {
    const { url } = await readySim('sglang', [], { ...FAST, VIGIL_SIM_GENERATION_FAIL: 'empty' });
    const reply = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'org/model',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 16,
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    const events = (await reply.text())
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
      .map((l) => JSON.parse(l.slice(6)) as { choices: { finish_reason: string | null }[]; usage?: unknown });
    expect(events.flatMap((e) => e.choices.map((c) => c.finish_reason)).filter(Boolean)).toEqual(['stop']);
    expect(events.at(-1)?.usage).toMatchObject({ completion_tokens: 1 });
    const r = await runVigil(['smoke', url, '--output', 'json']);
    expect(r.code).toBe(7);
    const report = JSON.parse(r.stdout) as { failure: { evidence: Record<string, unknown>[] } };
    expect(report.failure.evidence).toEqual([
      {
        source: 'POST /v1/chat/completions',
        text: 'HTTP 200: (no text), finish_reason stop, 1 completion tokens',
      },
    ]);
  });

  it('fails with exit 7 when no answer comes within --smoke-timeout', async () => {
    const { url } = await readySim('vllm', [], { ...FAST, VIGIL_SIM_GENERATION_FAIL: 'hang' });
    const started = Date.now();
    const r = await runVigil(['smoke', url, '--smoke-timeout', '1s', '--output', 'json']);
    expect(r.code).toBe(7);
    const report = JSON.parse(r.stdout) as { ok: boolean; failure: { summary: string } | null };
    expect(report.ok).toBe(false);
    expect(report.failure?.summary).toMatch(/smoke timeout/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('refuses a --smoke-timeout outside its range before sending anything', async () => {
    const r = await runMain(['smoke', 'http://127.0.0.1:9', '--smoke-timeout', '20m']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--smoke-timeout: expected a duration from 1s to 10m, got "20m"/);
  });
});

describe('vigil up --smoke', () => {
  const up = async (env: Record<string, string>) => {
    const state = await makeStateEnv();
    const port = await freePort();
    const r = await runVigil(
      [
        'up',
        '--smoke',
        '--output',
        'jsonl',
        '--',
        'vigil',
        'sim',
        'vllm',
        '--',
        'serve',
        'org/model',
        '--port',
        String(port),
      ],
      { ...state.env, VIGIL_SIM_TIME_SCALE: '0.002', ...FAST, ...env },
    );
    for (const event of r.events) if (event.type === 'launched') trackSession(event.pgid);
    return r;
  };

  it('ends at rung generating after a passing smoke event', async () => {
    const r = await up({});
    expect(r.code).toBe(0);
    const types = r.events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(['smoke', 'ready']);
    expect(r.events.at(-2)).toMatchObject({ type: 'smoke', ok: true, tokens: 16 });
    expect(r.events.at(-1)).toMatchObject({ type: 'ready', rung: 'generating' });
  });

  it('fails the start with reason smoke, exit 7 and evidence when generation fails, and stops the server', async () => {
    const r = await up({ VIGIL_SIM_GENERATION_FAIL: '500' });
    expect(r.code).toBe(7);
    const failed = r.events.at(-1);
    expect(failed).toMatchObject({ type: 'failed', reason: 'smoke', exit_code: 7, kept_running: false });
    if (failed?.type !== 'failed') throw new Error('no failed event');
    expect(failed.diagnosis.evidence[0]?.text).toMatch(/^HTTP 500/);
    expect(failed.diagnosis.evidence[0]).toMatchObject({ source: 'POST /v1/chat/completions' });
    expect(failed.diagnosis.evidence[0]).not.toHaveProperty('line');
    expect(r.stdout).not.toMatch(/"line":0/);
  });
});
