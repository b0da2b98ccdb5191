import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ensureBuilt, freePort, request, startSim, stopSim, waitFor, waitForLog } from '../sim-process.ts';

beforeAll(() => {
  ensureBuilt();
});

describe.concurrent('the simulated HTTP server', () => {
  it("applies SGLang's key rule: /health and /metrics open, everything else needs the bearer key", async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port), '--api-key', 'sk-a1b2']);
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /ready to roll/);
    expect((await request(port, '/health')).status).toBe(200);
    expect((await request(port, '/health_generate')).status).toBe(200);
    expect((await request(port, '/v1/models')).status).toBe(401);
    expect((await request(port, '/v1/models', { headers: { authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
    expect((await request(port, '/v1/models', { headers: { authorization: 'Bearer sk-a1b2' } })).status).toBe(
      200,
    );
    // No --enable-metrics: SGLang has no /metrics route.
    expect((await request(port, '/metrics')).status).toBe(404);
    const missing = await request(port, '/nope', { headers: { authorization: 'Bearer sk-a1b2' } });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ detail: 'Not Found' });
    expect(
      (
        await request(port, '/v1/models', {
          method: 'POST',
          body: {},
          headers: { authorization: 'Bearer sk-a1b2' },
        })
      ).status,
    ).toBe(405);
  });

  it("applies vLLM's key rule (only /v1 is guarded) and serves /metrics, /version and /load", async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('vllm', [
      'serve',
      'org/m',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--api-key',
      'k-9x8y',
    ]);
    onTestFinished(() => stopSim(sim));
    await waitFor('/health 200', async () => (await request(port, '/health')).status === 200);
    expect((await request(port, '/version')).status).toBe(200);
    expect(JSON.parse((await request(port, '/load')).body)).toEqual({ server_load: 0 });
    expect((await request(port, '/v1/models')).status).toBe(401);
    const auth = { authorization: 'Bearer k-9x8y' };
    const models = JSON.parse((await request(port, '/v1/models', { headers: auth })).body) as {
      data: { id: string; owned_by: string }[];
    };
    expect(models.data[0]).toMatchObject({ id: 'org/m', owned_by: 'vllm' });
    const wrongModel = await request(port, '/v1/completions', {
      body: { model: 'other', prompt: 'x', max_tokens: 1 },
      headers: auth,
    });
    expect(wrongModel.status).toBe(404);
    expect(JSON.parse(wrongModel.body)).toMatchObject({
      error: { message: 'The model `other` does not exist.', code: 404 },
    });
    await request(port, '/v1/completions', {
      body: { model: 'org/m', prompt: 'hello there', max_tokens: 3 },
      headers: auth,
    });
    const metrics = (await request(port, '/metrics')).body;
    expect(metrics).toMatch(/^# TYPE vllm:generation_tokens_total counter$/m);
    expect(metrics).toMatch(/^vllm:generation_tokens_total\{engine="0",model_name="org\/m"\} 3\.0$/m);
    expect(metrics).toMatch(/^vllm:prompt_tokens_total\{engine="0",model_name="org\/m"\} 3\.0$/m);
    await waitFor('the access line', () =>
      /\(APIServer pid=\d+\) INFO: {5}127\.0\.0\.1:\d+ - "GET \/metrics HTTP\/1\.1" 200 OK/.test(sim.log()),
    );
  });

  it('flaps after ready: /health cycles through VIGIL_SIM_FLAP and SGLang logs each failed check', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port)], {
      VIGIL_SIM_FAIL: 'flap@ready',
      VIGIL_SIM_FLAP: '200,503,503',
    });
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /ready to roll/);
    const statuses: (number | null)[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(port, '/health')).status);
    expect(statuses).toEqual([200, 503, 503, 200, 503, 503]);
    await waitFor(
      'four failed checks',
      () =>
        (sim.log().match(/Health check failed\. Server couldn't get a response from detokenizer/g) ?? [])
          .length === 4,
    );
  });
});
