import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { loadBundledSchema } from '../../src/flags/schema/bundled.ts';
import { formatArgparseError } from '../../src/flags/argparse/usage.ts';
import {
  ensureBuilt,
  freePort,
  missingInOrder,
  readTrace,
  request,
  runSimSync,
  startSim,
  stopSim,
  waitFor,
  waitForLog,
} from './sim-process.ts';

const FIXTURE = new URL('../fixtures/flags/sglang-v0.5.18.unknown-flag.txt', import.meta.url);

const expectInOrder = (log: string, patterns: RegExp[]): void => {
  expect(missingInOrder(log, patterns), log).toBeNull();
};

beforeAll(() => {
  ensureBuilt();
});

describe.concurrent('vigil sim sglang: the start', () => {
  it('goes through every phase in order, with rank prefixes, a \\r shard bar and the api key in server_args', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', [
      '--model-path',
      'org/model',
      '--port',
      String(port),
      '--tp-size',
      '2',
      '--api-key',
      'sk-sim-secret',
      '--speculative-algorithm',
      'EAGLE3',
      '--speculative-draft-model-path',
      '/ckpt/draft',
    ]);
    onTestFinished(() => stopSim(sim));
    const log = await waitForLog(sim, /The server is fired up and ready to roll!/);
    expectInOrder(log, [
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] server_args=ServerArgs\(model_path='org\/model', /m,
      /\[[\d: -]+ TP0\] Init torch distributed begin\./,
      /\[Gloo\] Rank 1 is connected to 1 peer ranks/,
      /TP0\] Init torch distributed ends\. elapsed=/,
      /TP0\] Load weight begin\. avail mem=/,
      /\rLoading safetensors checkpoint shards: {3}0% Completed \| 0\/18 \[00:00<\?, \?it\/s\]\n/,
      /\rLoading safetensors checkpoint shards: 100% Completed \| 18\/18 /,
      /TP0\] Load weight end\. elapsed=[\d.]+ s, type=LlamaForCausalLM, dtype=torch\.bfloat16/,
      /TP1\] KV Cache is allocated\. dtype: torch\.bfloat16, #tokens: \d+/,
      /TP0\] Memory pool end\./,
      /TP0\] Capture target decode CUDA graph begin\. backend=full, num_tokens_per_req=1, bs=\[1, 2, 4/,
      /\rCapturing batches \(bs=1 avail_mem=[\d.]+ GB\): 100%\|█{10}\| 23\/23 /,
      /TP1\] Registering \d+ cuda graph addresses/,
      /TP0\] Capture target decode CUDA graph end\. elapsed=[\d.]+ s,/,
      /TP0\] Load weight end\. elapsed=[\d.]+ s, type=LlamaForCausalLMEagle3/,
      /TP0\] Capture draft decode CUDA graph begin\./,
      /TP0\] Capture draft decode CUDA graph end\./,
      /TP0\] Capture draft extend CUDA graph begin\. step=1/,
      /\] INFO: {5}Started server process \[\d+\]/,
      /\] INFO: {5}Application startup complete\./,
      new RegExp(
        `\\] INFO: {5}Uvicorn running on http://127\\.0\\.0\\.1:${port} \\(Press CTRL\\+C to quit\\)`,
      ),
      /"GET \/model_info HTTP\/1\.1" 200 OK/,
      /TP0\] Prefill batch\. #new-seq: 1/,
      /"POST \/generate HTTP\/1\.1" 200 OK/,
      /\] The server is fired up and ready to roll!/,
    ]);
    expect(log).toMatch(/ServerArgs\(.*api_key='sk-sim-secret'.*\)/);
    expect(log).toMatch(/ServerArgs\(.*tp_size=2, .*\)/);
    expect((await request(port, '/health')).status).toBe(200);
  });

  it('keeps the port closed until the graphs are done, then /health turns 200 before the ready line', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port)]);
    onTestFinished(() => stopSim(sim));
    const seen: (number | null)[] = [];
    await waitFor('/health 200', async () => {
      const probe = await request(port, '/health');
      seen.push(probe.status);
      return probe.status === 200;
    });
    expect(seen[0]).toBeNull();
    expect(seen.every((status) => status === null || status === 503 || status === 200)).toBe(true);
    await waitForLog(sim, /ready to roll/);
    const trace = await waitFor('trace events', () => {
      const events = readTrace(sim);
      return events.length >= 3 ? events : undefined;
    });
    const at = (name: string): number => trace.find((event) => event.event === name)?.t ?? Number.NaN;
    expect(at('listening')).toBeLessThanOrEqual(at('healthy'));
    expect(at('listening')).toBeLessThanOrEqual(at('ready-line'));
    expect((await request(port, '/health_generate')).status).toBe(200);
  });

  it('answers /v1/models and /get_model_info with 200 while /health is still 503 during warmup', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port)], {
      VIGIL_SIM_FAIL: 'hang@warmup',
    });
    onTestFinished(() => stopSim(sim));
    await waitForLog(sim, /Uvicorn running on/);
    expect((await request(port, '/health')).status).toBe(503);
    expect((await request(port, '/health_generate')).status).toBe(503);
    const models = await request(port, '/v1/models');
    expect(models.status).toBe(200);
    expect(JSON.parse(models.body)).toMatchObject({ object: 'list', data: [{ id: 'm', object: 'model' }] });
    expect((await request(port, '/get_model_info')).status).toBe(200);
    expect((await request(port, '/model_info')).status).toBe(200);
    expect(sim.log()).not.toMatch(/ready to roll/);
  });

  it('fails the way uvicorn does when the port is really taken: the bind error, shutdown lines, exit 1', async ({
    onTestFinished,
  }: TestContext) => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    const port = await new Promise<number>((resolve) => {
      holder.listen(0, '127.0.0.1', () => {
        const address = holder.address();
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
    try {
      const sim = startSim('sglang', ['--model-path', 'm', '--port', String(port)]);
      onTestFinished(() => stopSim(sim));
      const end = await sim.exited;
      expect(end).toEqual({ code: 1, signal: null });
      expectInOrder(sim.log(), [
        /INFO: {5}Application startup complete\./,
        new RegExp(
          `ERROR: {4}\\[Errno 98\\] error while attempting to bind on address \\('127\\.0\\.0\\.1', ${port}\\): address already in use`,
        ),
        /INFO: {5}Waiting for application shutdown\./,
        /INFO: {5}Application shutdown complete\./,
      ]);
      expect(readTrace(sim).at(-1)).toMatchObject({ event: 'exit', code: 1 });
    } finally {
      holder.close();
    }
  });
});

describe.concurrent('vigil sim vllm: the start', () => {
  it('goes through its phases in vLLM order and binds only after Application startup complete.', async ({
    onTestFinished,
  }: TestContext) => {
    const port = await freePort();
    const sim = startSim('vllm', [
      'serve',
      'org/model',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '-tp',
      '2',
    ]);
    onTestFinished(() => stopSim(sim));
    const log = await waitForLog(sim, /Application startup complete\./);
    expectInOrder(log, [
      /^INFO \d\d-\d\d [\d:]+ \[__init__\.py:\d+\] Automatically detected platform cuda\./m,
      /\(APIServer pid=\d+\) INFO [\d\- :]+ \[api_server\.py:\d+\] vLLM server version 0\.20\.1, serving model /,
      /non-default args: \{'model_tag': 'org\/model', 'host': '127\.0\.0\.1', 'port': \d+, 'model': 'org\/model', 'tensor_parallel_size': 2\}/,
      /\(EngineCore_DP0 pid=\d+\) INFO .*Initializing a V1 LLM engine \(v0\.20\.1\)/,
      /\(Worker_TP1 pid=\d+\) INFO .*rank 1 in world size 2 is assigned as DP rank 0, PP rank 0, TP rank 1/,
      /\(Worker_TP0 pid=\d+\) INFO .*Starting to load model org\/model\.\.\./,
      /\rLoading safetensors checkpoint shards: 100% Completed \| 14\/14 /,
      /Model loading took [\d.]+ GiB memory and [\d.]+ seconds/,
      /torch\.compile takes [\d.]+ s in total/,
      /Available KV cache memory: [\d.]+ GiB/,
      /GPU KV cache size: [\d,]+ tokens/,
      /Capturing CUDA graphs \(decode, FULL\): 100%/,
      /Graph capturing finished in \d+ secs/,
      /init engine \(profile, create kv cache, warmup model\) took [\d.]+ seconds/,
      new RegExp(`Starting vLLM server on http://127\\.0\\.0\\.1:${port}`),
      /Route: \/health, Methods: GET/,
      /\(APIServer pid=\d+\) INFO: {5}Started server process \[\d+\]/,
      /\(APIServer pid=\d+\) INFO: {5}Application startup complete\./,
    ]);
    await waitFor('/health 200', async () => (await request(port, '/health')).status === 200);
    expect(JSON.parse((await request(port, '/version')).body)).toEqual({ version: '0.19.1' });
  });
});

describe('vigil sim: rejected command lines', () => {
  it('rejects --num-speculative-tokens as SGLang v0.5.18 does: the usage block and the error line, exit 2', () => {
    const result = runSimSync(['sglang', '--', '--model-path', 'm', '--num-speculative-tokens', '16'], {
      COLUMNS: '100',
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('error: unrecognized arguments: --num-speculative-tokens 16\n')).toBe(true);
    const schema = loadBundledSchema('sglang');
    const message = 'unrecognized arguments: --num-speculative-tokens 16';
    expect(result.stderr).toBe(formatArgparseError(schema, message, { prog: 'launch_server.py', width: 98 }));
    // Same parts as the real output, only the program name (and so the wrapping) differs.
    const fixture = readFileSync(FIXTURE, 'utf8').replaceAll('python -m sglang.launch_server', 'PROG');
    const ours = result.stderr.replaceAll('launch_server.py', 'PROG');
    expect(ours.split(/\s+/)).toEqual(fixture.split(/\s+/));
    expect(result.stderr.split('\n')[1]).toMatch(/^ {24}\[/);
  });

  it('rejects an invalid choice and a missing required option the same way', () => {
    const choice = runSimSync(['sglang', '--', '--model-path', 'm', '--dtype', 'fp7']);
    expect(choice.status).toBe(2);
    expect(choice.stderr).toMatch(
      /\nlaunch_server\.py: error: argument --dtype: invalid choice: 'fp7' \(choose from 'auto', 'half', /,
    );
    const missing = runSimSync(['sglang', '--', '--port', '30000']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(
      /launch_server\.py: error: the following arguments are required: --model-path/,
    );
  });

  it("rejects an unknown vLLM flag with vLLM's top-level usage", () => {
    const result = runSimSync(['vllm', '--', 'serve', 'm', '--enable-reasoning']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'usage: vllm [-h] [-v] {chat,complete,serve,bench,collect-env,run-batch} ...\nvllm: error: unrecognized arguments: --enable-reasoning\n',
    );
  });

  it('refuses a bad VIGIL_SIM_FAIL before printing anything of the engine, naming what is allowed (exit 1)', () => {
    const unknown = runSimSync(['sglang', '--', '--model-path', 'm'], {
      VIGIL_SIM_FAIL: 'meltdown@weight-load',
    });
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(
      /^vigil: VIGIL_SIM_FAIL: expected <class>@<phase-id>, class one of cuda-oom, nccl, hang/,
    );
    const wrongPhase = runSimSync(['sglang', '--', '--model-path', 'm'], {
      VIGIL_SIM_FAIL: 'cuda-oom@dist-init',
    });
    expect(wrongPhase.status).toBe(1);
    expect(wrongPhase.stderr).toMatch(
      /cuda-oom at one of weight-load, kv-cache, graph-capture, draft-graph-capture on SGLang/,
    );
    expect(wrongPhase.stderr).not.toMatch(/server_args/);
    const noDraft = runSimSync(['sglang', '--', '--model-path', 'm'], {
      VIGIL_SIM_FAIL: 'hang@draft-graph-capture',
    });
    expect(noDraft.status).toBe(1);
    expect(noDraft.stderr).toMatch(/draft-graph-capture: it needs --speculative-algorithm/);
    const vllmOnly = runSimSync(['vllm', '--', 'm'], { VIGIL_SIM_FAIL: 'warmup-failed@warmup' });
    expect(vllmOnly.status).toBe(1);
    expect(vllmOnly.stderr).toMatch(/a failure class the simulated vLLM has \(cuda-oom, nccl, hang/);
    const scale = runSimSync(['sglang', '--', '--model-path', 'm'], { VIGIL_SIM_TIME_SCALE: 'fast' });
    expect(scale.status).toBe(1);
    expect(scale.stderr).toMatch(/VIGIL_SIM_TIME_SCALE: expected a number >= 0/);
  });

  it('refuses an engine it does not simulate', () => {
    const result = runSimSync(['tgi', '--', '--model-id', 'm']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/engine: expected sglang or vllm, got "tgi"/);
  });
});
