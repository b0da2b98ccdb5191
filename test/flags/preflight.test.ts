// runPreflight end to end in process: schema sources, every family of checks, severity and --strict.
import { chmod, mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPreflight, type PreflightOptions } from '../../src/flags/preflight.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/flags/', import.meta.url));
const SGLANG = ['python', '-m', 'sglang.launch_server'];
const VLLM = ['vllm', 'serve'];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-preflight-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const check = (command: string[], options: Partial<PreflightOptions> = {}) =>
  runPreflight({ command, offline: true, cacheDir: join(dir, 'cache'), ...options });

const codes = (outcome: Awaited<ReturnType<typeof check>>) =>
  outcome.report.findings.map((f) => [f.severity, f.code]);

describe('runPreflight: the seed case', () => {
  it('blocks --num-speculative-tokens for SGLang, names vLLM and fills in N', async () => {
    const outcome = await check([...SGLANG, '--model-path', 'm', '--num-speculative-tokens', '16']);
    expect(outcome.blocked).toBe(true);
    expect(outcome.report.status).toBe('errors');
    expect(outcome.report.source).toEqual({
      kind: 'bundled',
      engine: 'sglang',
      version: '0.5.18',
      path: 'data/flags/sglang-v0.5.18.flags.json',
    });
    const [finding] = outcome.report.findings;
    expect(finding).toMatchObject({
      severity: 'error',
      code: 'unknown-option',
      index: 5,
      arg: '--num-speculative-tokens',
    });
    expect(finding?.suggestions[0]).toBe('--speculative-num-draft-tokens');
    expect(finding?.message).toContain("vLLM's num_speculative_tokens=16 (chain drafting)");
    expect(finding?.message).toContain(
      'SGLang --speculative-num-steps 16 --speculative-eagle-topk 1 --speculative-num-draft-tokens 17',
    );
    expect(finding?.message).toContain('unrecognized arguments: --num-speculative-tokens 16');
  });

  it('reads N from the = form too', async () => {
    const outcome = await check([...SGLANG, '--model-path', 'm', '--num-speculative-tokens=4']);
    expect(outcome.report.findings[0]?.message).toContain(
      '--speculative-num-steps 4 --speculative-eagle-topk 1 --speculative-num-draft-tokens 5',
    );
  });
});

describe('runPreflight: scope and sources', () => {
  it('skips a command with no recognised entrypoint, and says why', async () => {
    const outcome = await check(['./start-server.sh', '--port', '1']);
    expect(outcome).toEqual({
      report: {
        status: 'skipped',
        source: null,
        findings: [],
        skipped_reason: expect.stringContaining('no recognised engine entrypoint') as string,
      },
      blocked: false,
    });
  });

  it('passes a valid command with exit-worthy status ok', async () => {
    const outcome = await check([
      'env',
      'NCCL_DEBUG=INFO',
      'nohup',
      ...SGLANG,
      '--model-path',
      'org/model',
      '--tp-size',
      '8',
      '--port',
      '30000',
    ]);
    expect(outcome.report.status).toBe('ok');
    expect(outcome.blocked).toBe(false);
  });

  it('lets --help-file alone decide, naming it as the source', async () => {
    const helpFile = join(FIXTURES, 'sglang-v0.4.3.help.txt');
    const ok = await check([...SGLANG, '--model-path', 'm', '--enable-flashinfer-mla'], { helpFile });
    expect(ok.report.status).toBe('ok');
    expect(ok.report.source).toEqual({ kind: 'help-file', engine: 'sglang', version: null, path: helpFile });
    const bad = await check(
      [
        ...SGLANG,
        '--model-path',
        'm',
        '--enable-nan-detection',
        '--context-length',
        '4096',
        '--mem-fraction-statc',
        '0.8',
      ],
      {
        helpFile,
      },
    );
    expect(bad.report.findings.map((f) => [f.code, f.suggestions[0]])).toEqual([
      ['unknown-option', '--mem-fraction-static'],
    ]);
  });

  it('rejects a help file that lists no options, saying what was expected', async () => {
    const helpFile = join(FIXTURES, 'vllm-v0.19.1.help-summary.txt');
    await expect(check([...VLLM, 'm'], { helpFile })).rejects.toMatchObject({
      code: 'E_USAGE',
      option: '--help-file',
    });
    await expect(check([...VLLM, 'm'], { helpFile: join(dir, 'missing.txt') })).rejects.toMatchObject({
      code: 'E_USAGE',
    });
  });

  it('refuses an --engine that contradicts the command', async () => {
    await expect(check([...VLLM, 'm'], { engine: 'sglang' })).rejects.toMatchObject({
      code: 'E_USAGE',
      option: '--engine',
    });
  });

  it('treats the simulator as running exactly the newest bundled release', async () => {
    const outcome = await check([
      'vigil',
      'sim',
      'sglang',
      '--',
      '--model-path',
      'm',
      '--enable-nan-detection',
    ]);
    expect(outcome.report.findings.map((f) => [f.severity, f.code, f.index])).toEqual([
      ['error', 'unknown-option', 6],
    ]);
  });
});

describe('runPreflight: unknown options under the bundled schema', () => {
  it('warns (not errors) for an option another bundled release has, and names those releases', async () => {
    const outcome = await check([...SGLANG, '--model-path', 'm', '--enable-nan-detection']);
    expect(outcome.report.status).toBe('warnings');
    expect(outcome.blocked).toBe(false);
    const [finding] = outcome.report.findings;
    expect(finding?.code).toBe('version-dependent-option');
    expect(finding?.message).toContain('SGLang v0.4.3–v0.5.9');
    expect(
      (await check([...SGLANG, '--model-path', 'm', '--enable-nan-detection'], { strict: true })).blocked,
    ).toBe(true);
  });

  it('errors, with the history, when a help text decides', async () => {
    const helpFile = join(FIXTURES, 'sglang-v0.5.18.help.txt');
    const outcome = await check([...SGLANG, '--model-path', 'm', '--enable-nan-detection'], { helpFile });
    expect(outcome.report.findings[0]).toMatchObject({ severity: 'error', code: 'unknown-option' });
    expect(outcome.report.findings[0]?.message).toContain(
      'it existed in SGLang v0.4.3–v0.5.9 and is gone in v0.5.18',
    );
  });

  it('explains vLLM options gone from the schema', async () => {
    const outcome = await check([...VLLM, 'm', '--enable-reasoning', '--reasoning-parser', 'deepseek_r1']);
    const finding = outcome.report.findings[0];
    expect(finding?.message).toContain('vLLM v0.8.5.post1');
    expect(finding?.suggestions[0]).toBe('--reasoning-parser');
  });

  it('says that SGLang does not read _ as - but vLLM does', async () => {
    const sglang = await check([...SGLANG, '--model-path', 'm', '--reasoning_parser', 'qwen3']);
    expect(sglang.report.findings[0]).toMatchObject({
      severity: 'error',
      suggestions: ['--reasoning-parser'],
    });
    const vllm = await check([...VLLM, 'm', '--reasoning_parser', 'qwen3', '--max_model_len', '4096']);
    expect(vllm.report.status).toBe('ok');
  });

  it('names the SGLang spelling of a vLLM option, with the difference', async () => {
    const outcome = await check([
      ...SGLANG,
      '--model-path',
      'm',
      '--gpu-memory-utilization',
      '0.9',
      '-tp',
      '8',
    ]);
    expect(outcome.report.findings.map((f) => f.suggestions[0])).toEqual([
      '--mem-fraction-static',
      '--tp-size',
    ]);
    expect(outcome.report.findings[0]?.message).toContain('not numerically interchangeable');
  });

  it('suggests --model-path for a bare model name given to SGLang', async () => {
    const outcome = await check([...SGLANG, 'meta-llama/Llama-3.1-8B']);
    expect(outcome.report.findings.map((f) => [f.code, f.suggestions[0]])).toEqual([
      ['unexpected-argument', '--model-path'],
      ['missing-required', '--model-path'],
    ]);
  });
});

describe("runPreflight: argparse's rules", () => {
  it('reports ambiguous prefixes with their candidates and notes accepted abbreviations', async () => {
    const outcome = await check([
      ...SGLANG,
      '--model-path',
      'm',
      '--speculative-num',
      '3',
      '--tensor-parallel',
      '2',
    ]);
    expect(codes(outcome)).toEqual([
      ['error', 'ambiguous-option'],
      ['info', 'abbreviated-option'],
    ]);
    expect(outcome.report.findings[0]?.suggestions).toEqual([
      '--speculative-num-steps',
      '--speculative-num-draft-tokens',
    ]);
  });

  it('reports missing values, values for switches and bad choices, with the nearest choice', async () => {
    const outcome = await check([
      ...SGLANG,
      '--model-path',
      'm',
      '--trust-remote-code=yes',
      '--tokenizer-mode',
      'AUTO',
      '--port',
    ]);
    expect(codes(outcome)).toEqual([
      ['error', 'unexpected-value'],
      ['error', 'invalid-choice'],
      ['error', 'missing-value'],
    ]);
    expect(outcome.report.findings[1]?.suggestions[0]).toBe('auto');
  });

  it('warns about repeated and deprecated options', async () => {
    const outcome = await check([
      ...SGLANG,
      '--model-path',
      'm',
      '--port',
      '1',
      '--port',
      '2',
      '--disable-cuda-graph',
    ]);
    expect(codes(outcome)).toEqual([
      ['warning', 'repeated-option'],
      ['warning', 'deprecated-option'],
    ]);
    expect(outcome.report.findings[0]?.message).toContain('keeps only the last: --port 2');
  });

  it('requires the required options', async () => {
    const outcome = await check([...SGLANG, '--port', '1']);
    expect(outcome.report.findings[0]).toMatchObject({
      code: 'missing-required',
      index: null,
      suggestions: ['--model-path'],
    });
  });
});

describe('runPreflight: values', () => {
  it('checks JSON for vLLM --speculative-config', async () => {
    const bad = await check([
      ...VLLM,
      'm',
      '--speculative-config',
      '{"model": "d", num_speculative_tokens: 5}',
    ]);
    expect(codes(bad)).toEqual([['error', 'invalid-json']]);
    expect(bad.report.findings[0]?.index).toBe(4);
    const zero = await check([...VLLM, 'm', '--speculative-config', '{"num_speculative_tokens": 0}']);
    expect(codes(zero)).toEqual([['error', 'invalid-value']]);
    const good = await check([
      ...VLLM,
      'm',
      '--speculative-config',
      '{"model": "d", "num_speculative_tokens": 5}',
    ]);
    expect(good.report.status).toBe('ok');
  });

  it('requires local model paths to exist on the host, but not hub ids', async () => {
    await mkdir(join(dir, 'draft'));
    const missing = join(dir, 'nope');
    const outcome = await check([
      ...SGLANG,
      '--model-path',
      missing,
      '--speculative-algorithm',
      'EAGLE3',
      '--speculative-draft-model-path',
      join(dir, 'draft'),
    ]);
    expect(outcome.report.findings.map((f) => [f.code, f.index])).toEqual([['path-not-found', 4]]);
    expect((await check([...SGLANG, '--model-path', 'org/name'])).report.status).toBe('ok');
    const vllm = await check([...VLLM, missing]);
    expect(codes(vllm)).toEqual([['error', 'path-not-found']]);
  });

  it('catches integers that are not integers', async () => {
    const outcome = await check([...SGLANG, '--model-path', 'm', '--tp-size', 'eight']);
    expect(outcome.report.findings[0]?.message).toBe(
      "argument --tp-size/--tensor-parallel-size: invalid int value: 'eight'",
    );
  });
});

describe('runPreflight: secrets', () => {
  it('never puts an API key in a finding', async () => {
    const outcome = await check([...SGLANG, '--model-path', 'm', '--api_key=sekrit-value-123']);
    const text = JSON.stringify(outcome.report);
    expect(outcome.report.findings.length).toBeGreaterThan(0);
    expect(text).not.toContain('sekrit-value-123');
  });
});

describe('runPreflight: live --help on the host', () => {
  const fakePython = async (version: string, helpName: string): Promise<string> => {
    const bin = join(dir, 'bin');
    await mkdir(bin, { recursive: true });
    const script = join(bin, 'python3');
    const counter = join(dir, 'help-runs');
    await writeFile(
      script,
      [
        '#!/bin/sh',
        `if [ "$1" = "-c" ]; then echo "$0"; echo "${version}"; exit 0; fi`,
        `if [ "$1" = "-m" ] && [ "$3" = "--help" ]; then echo run >> '${counter}'; cat '${join(FIXTURES, helpName)}'; exit 0; fi`,
        'echo "unexpected: $*" >&2; exit 1',
        '',
      ].join('\n'),
    );
    await chmod(script, 0o755);
    return script;
  };

  it("reads the engine's --help once per version, caches it mode 0600, and says the first run takes a while", async () => {
    const python = await fakePython('0.4.3', 'sglang-v0.4.3.help.txt');
    const notes: string[] = [];
    const command = [python, '-m', 'sglang.launch_server', '--model-path', 'm', '--enable-flashinfer-mla'];
    const first = await check(command, { offline: false, onNote: (n) => notes.push(n) });
    expect(first.report.status).toBe('ok');
    expect(first.report.source).toEqual({
      kind: 'live',
      engine: 'sglang',
      version: '0.4.3',
      path: `${python} -m sglang.launch_server --help`,
    });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('first run for v0.4.3 takes a while');
    const second = await check(command, { offline: false, onNote: (n) => notes.push(n) });
    expect(second.report).toEqual(first.report);
    expect(notes).toHaveLength(1);
    const runs = await import('node:fs/promises').then((fs) => fs.readFile(join(dir, 'help-runs'), 'utf8'));
    expect(runs.trim().split('\n')).toHaveLength(1);
    const [file] = await readdir(join(dir, 'cache'));
    expect(file).toMatch(/^sglang-0\.4\.3-[0-9a-f]{16}\.json$/);
    expect((await stat(join(dir, 'cache', file ?? ''))).mode & 0o777).toBe(0o600);
  });

  it('retries plain --help on vLLM releases that reject --help=all', async () => {
    const vllm = join(dir, 'vllm');
    await writeFile(
      vllm,
      [
        '#!/bin/sh',
        `if [ "$2" = "--help=all" ]; then echo "vllm serve: error: argument -h/--help: ignored explicit argument 'all'" >&2; exit 2; fi`,
        `if [ "$2" = "--help" ]; then cat '${join(FIXTURES, 'vllm-v0.6.6.post1.help.txt')}'; exit 0; fi`,
        'exit 1',
        '',
      ].join('\n'),
    );
    await chmod(vllm, 0o755);
    const outcome = await check([vllm, 'serve', 'm', '--num-speculative-tokens', '3', '-O3'], {
      offline: false,
    });
    expect(outcome.report.status).toBe('ok');
    expect(outcome.report.source).toEqual({
      kind: 'live',
      engine: 'vllm',
      version: null,
      path: `${vllm} serve --help`,
    });
  });

  it('falls back to the bundled schema, with a note, when the engine cannot be run', async () => {
    const outcome = await check([join(dir, 'python3'), '-m', 'sglang.launch_server', '--model-path', 'm'], {
      offline: false,
    });
    expect(outcome.report.source?.kind).toBe('bundled');
    expect(codes(outcome)).toEqual([['info', 'live-schema-unavailable']]);
    expect(outcome.report.status).toBe('ok');
  });

  it('applies the speculative all-or-none rule by the installed release: error on v0.5.18, nothing on v0.4.3', async () => {
    const partial = [
      '--model-path',
      'm',
      '--speculative-algorithm',
      'EAGLE',
      '--speculative-draft-model-path',
      'd',
      '--speculative-num-steps',
      '3',
    ];
    const auto = await fakePython('0.5.18', 'sglang-v0.5.18.help.txt');
    const onAuto = await check([auto, '-m', 'sglang.launch_server', ...partial], { offline: false });
    expect(codes(onAuto)).toEqual([['error', 'speculative-partial']]);
    expect(onAuto.report.findings[0]?.message).toContain(
      '--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4',
    );
    await rm(join(dir, 'bin'), { recursive: true });
    const old = await fakePython('0.4.3', 'sglang-v0.4.3.help.txt');
    const onOld = await check([old, '-m', 'sglang.launch_server', ...partial], { offline: false });
    expect(onOld.report.status).toBe('ok');
  });
});
