// Every cross-engine pair: the other engine's spelling, typed into a command, gets this engine's first.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CROSS_ENGINE_PAIRS } from '../../src/flags/checks/aliases.ts';
import { optionLookup } from '../../src/flags/argparse/parse.ts';
import { BUNDLED_VERSIONS, loadBundledSchema } from '../../src/flags/schema/bundled.ts';
import { runPreflight } from '../../src/flags/preflight.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/flags/', import.meta.url));
const SGLANG = ['python', '-m', 'sglang.launch_server', '--model-path', 'm'];
const VLLM = ['vllm', 'serve', 'm'];

// [engine typed into, version (help file) or newest bundled, typed name, value or null, expected suggestions[0]]
const CASES: [string, string | null, string, string | null, string][] = [
  ['sglang', null, '-tp', '8', '--tp-size'],
  ['sglang', null, '-pp', '2', '--pp-size'],
  ['sglang', null, '-dp', '2', '--dp-size'],
  ['sglang', null, '--enable-expert-parallel', null, '--ep-size'],
  ['sglang', null, '-ep', null, '--ep-size'],
  ['sglang', null, '--max-model-len', '8192', '--context-length'],
  ['sglang', null, '--gpu-memory-utilization', '0.9', '--mem-fraction-static'],
  ['sglang', null, '--tokenizer', 't', '--tokenizer-path'],
  ['sglang', null, '--max-num-seqs', '64', '--max-running-requests'],
  ['sglang', null, '--max-num-batched-tokens', '8192', '--chunked-prefill-size'],
  ['sglang', null, '--seed', '1', '--random-seed'],
  ['sglang', null, '--enforce-eager', null, '--cuda-graph-backend-decode'],
  ['sglang', 'sglang-v0.5.9', '--enforce-eager', null, '--disable-cuda-graph'],
  ['sglang', null, '--no-enable-prefix-caching', null, '--disable-radix-cache'],
  ['sglang', null, '--speculative-config', '{"num_speculative_tokens": 3}', '--speculative-algorithm'],
  ['sglang', null, '--speculative-model', 'd', '--speculative-draft-model-path'],
  ['sglang', null, '--num-speculative-tokens', '5', '--speculative-num-draft-tokens'],
  ['vllm', null, '--tp-size', '8', '--tensor-parallel-size'],
  ['vllm', null, '--pp-size', '2', '--pipeline-parallel-size'],
  ['vllm', null, '--dp-size', '2', '--data-parallel-size'],
  ['vllm', null, '--ep-size', '8', '--enable-expert-parallel'],
  ['vllm', null, '--expert-parallel-size', '8', '--enable-expert-parallel'],
  ['vllm', null, '--context-length', '8192', '--max-model-len'],
  ['vllm', null, '--mem-fraction-static', '0.8', '--gpu-memory-utilization'],
  ['vllm', null, '--model-path', 'm2', '--model'],
  ['vllm', null, '--tokenizer-path', 't', '--tokenizer'],
  ['vllm', null, '--max-running-requests', '64', '--max-num-seqs'],
  ['vllm', null, '--chunked-prefill-size', '8192', '--max-num-batched-tokens'],
  ['vllm', null, '--max-prefill-tokens', '8192', '--max-num-batched-tokens'],
  ['vllm', null, '--random-seed', '1', '--seed'],
  ['vllm', null, '--disable-cuda-graph', null, '--enforce-eager'],
  ['vllm', null, '--disable-radix-cache', null, '--no-enable-prefix-caching'],
  ['vllm', null, '--speculative-algorithm', 'EAGLE3', '--speculative-config'],
  ['vllm', null, '--speculative-draft-model-path', 'd', '--speculative-config'],
  ['vllm', null, '--speculative-draft-model', 'd', '--speculative-config'],
  ['vllm', null, '--speculative-num-steps', '3', '--speculative-config'],
  ['vllm', null, '--speculative-num-draft-tokens', '4', '--speculative-config'],
  ['vllm', null, '--speculative-eagle-topk', '1', '--speculative-config'],
  ['vllm', 'vllm-v0.6.6.post1', '--speculative-num-draft-tokens', '4', '--num-speculative-tokens'],
  ['vllm', 'vllm-v0.6.6.post1', '--speculative-draft-model-path', 'd', '--speculative-model'],
];

describe('cross-engine equivalents', () => {
  for (const [engine, version, typed, value, expected] of CASES) {
    it(`${typed} given to ${version ?? `${engine} (newest)`} suggests ${expected}`, async () => {
      const base = engine === 'sglang' ? SGLANG : VLLM;
      const command = [...base, typed, ...(value === null ? [] : [value])];
      const helpFile = version === null ? undefined : join(FIXTURES, `${version}.help.txt`);
      const outcome = await runPreflight({
        command,
        offline: true,
        ...(helpFile === undefined ? {} : { helpFile }),
      });
      const finding = outcome.report.findings.find((f) => f.index === base.length);
      expect(finding?.severity).toBe('error');
      expect(finding?.suggestions[0]).toBe(expected);
      expect(finding?.message).toMatch(engine === 'sglang' ? /vLLM/ : /SGLang/);
    });
  }

  it("notes that SGLang v0.4.3 reads vLLM's --model as an abbreviation of --model-path", async () => {
    const helpFile = join(FIXTURES, 'sglang-v0.4.3.help.txt');
    const outcome = await runPreflight({
      command: ['python', '-m', 'sglang.launch_server', '--model', 'm'],
      offline: true,
      helpFile,
    });
    expect(outcome.report.findings.map((f) => [f.severity, f.code, f.suggestions[0]])).toEqual([
      ['info', 'abbreviated-option', '--model-path'],
    ]);
  });

  it('covers every pair of the table', () => {
    const typedNames = new Set([...CASES.map((c) => c[2]), '--model']);
    for (const pair of CROSS_ENGINE_PAIRS) {
      const covered = [...(pair.spellings.vllm ?? []), ...(pair.spellings.sglang ?? [])].some((name) =>
        typedNames.has(name),
      );
      expect({ pair: pair.purpose, covered }).toEqual({ pair: pair.purpose, covered: true });
    }
  });

  it('only names options that exist in some bundled release', () => {
    const sglang = BUNDLED_VERSIONS.sglang.map((v) => optionLookup(loadBundledSchema('sglang', v)));
    const vllm = BUNDLED_VERSIONS.vllm.map((v) => optionLookup(loadBundledSchema('vllm', v)));
    for (const pair of CROSS_ENGINE_PAIRS) {
      for (const name of pair.spellings.sglang ?? [])
        expect({ name, found: sglang.some((l) => l.has(name)) }).toEqual({ name, found: true });
      for (const name of pair.spellings.vllm ?? [])
        expect({ name, found: vllm.some((l) => l.has(name)) }).toEqual({ name, found: true });
    }
  });

  it("warns when an abbreviation vLLM accepts is SGLang's option for something else", async () => {
    const outcome = await runPreflight({ command: [...VLLM, '--ep', '8'], offline: true });
    expect(outcome.report.findings[0]).toMatchObject({ severity: 'warning', code: 'abbreviated-option' });
    expect(outcome.report.findings[0]?.suggestions[0]).toBe('--enable-expert-parallel');
  });
});
