// parseArgv's structure: indexes, grouping of unrecognized arguments, resolution, and vLLM's argv rewriting.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { optionLookup, parseArgv } from '../../src/flags/argparse/parse.ts';
import { loadBundledSchema } from '../../src/flags/schema/bundled.ts';

const sglang = loadBundledSchema('sglang', '0.5.18');
const sglang043 = loadBundledSchema('sglang', '0.4.3');
const vllm = loadBundledSchema('vllm', '0.19.1');
const vllm066 = loadBundledSchema('vllm', '0.6.6.post1');

describe('parseArgv on SGLang (plain argparse)', () => {
  it('reports the seed mistake exactly as SGLang v0.5.18 does', () => {
    const captured = JSON.parse(
      readFileSync(new URL('../fixtures/flags/sglang-v0.5.18.unknown-flag.json', import.meta.url), 'utf8'),
    ) as { argv: string[]; last_line: string };
    const result = parseArgv(sglang, captured.argv);
    expect(`python -m sglang.launch_server: error: ${String(result.argparseError)}`).toBe(captured.last_line);
  });

  it('indexes issues in the whole command and gathers the value after an unknown option', () => {
    const result = parseArgv(sglang, ['--model-path', 'm', '--num-speculative-tokens', '16'], { offset: 3 });
    expect(result.issues).toEqual([
      {
        kind: 'unrecognized',
        index: 5,
        arg: '--num-speculative-tokens',
        option: null,
        candidates: [],
        message: 'unrecognized arguments: --num-speculative-tokens 16',
        args: ['--num-speculative-tokens', '16'],
      },
    ]);
    expect(result.options.map((o) => [o.resolved, o.index, o.values])).toEqual([['--model-path', 3, ['m']]]);
  });

  it('keeps separate unknown options apart and lists them all in one argparse line', () => {
    const result = parseArgv(sglang, ['--model', 'm', '--foo', '1', '--port', '8', '--bar', 'x', 'y']);
    expect(result.issues.map((i) => [i.index, i.args])).toEqual([
      [2, ['--foo', '1']],
      [6, ['--bar', 'x', 'y']],
    ]);
    expect(result.argparseError).toBe('unrecognized arguments: --foo 1 --bar x y');
  });

  it('lets an exact option string win over the longer options it prefixes', () => {
    const result = parseArgv(sglang, ['--model', 'm']);
    expect(result.argparseError).toBeNull();
    expect(result.options[0]).toMatchObject({ typed: '--model', resolved: '--model', matchedBy: 'exact' });
  });

  it('accepts an unambiguous prefix and says what it resolved to', () => {
    const result = parseArgv(sglang, ['--model-path', 'm', '--tensor-parallel=8']);
    expect(result.argparseError).toBeNull();
    expect(result.options[1]).toMatchObject({
      typed: '--tensor-parallel',
      resolved: '--tensor-parallel-size',
      matchedBy: 'prefix',
      values: ['8'],
      valueIndexes: [2],
    });
  });

  it('rejects an ambiguous prefix with every candidate, before any other error', () => {
    const result = parseArgv(sglang, ['--port', 'x', '--speculative-num']);
    const issue = result.issues.find((i) => i.kind === 'ambiguous');
    expect(issue?.candidates).toEqual(['--speculative-num-steps', '--speculative-num-draft-tokens']);
    expect(result.argparseError).toBe(
      'ambiguous option: --speculative-num could match --speculative-num-steps, --speculative-num-draft-tokens',
    );
    expect(result.issues.map((i) => i.kind)).toContain('invalid-value');
  });

  it('reports missing values, values given to flags, bad numbers and bad choices with their positions', () => {
    const result = parseArgv(sglang, [
      '--model-path',
      'm',
      '--skip-tokenizer-init=yes',
      '--tokenizer-mode',
      'fast',
      '--port',
      'eighty',
      '--context-length',
    ]);
    expect(result.issues.map((i) => [i.kind, i.index, i.value ?? null])).toEqual([
      ['unexpected-value', 2, 'yes'],
      ['invalid-choice', 3, 'fast'],
      ['invalid-value', 5, 'eighty'],
      ['expected-value', 7, null],
    ]);
    expect(result.issues[1]?.message).toBe(
      "argument --tokenizer-mode: invalid choice: 'fast' (choose from 'auto', 'slow')",
    );
    expect(result.issues[1]?.valueIndex).toBe(4);
    expect(result.argparseError).toBe("argument --skip-tokenizer-init: ignored explicit argument 'yes'");
  });

  it('prints int choices without quotes, as argparse does', () => {
    const result = parseArgv(sglang043, ['--model-path', 'm', '--speculative-eagle-topk', '3']);
    expect(result.argparseError).toBe(
      'argument --speculative-eagle-topk: invalid choice: 3 (choose from 1, 2, 4, 8)',
    );
  });

  it('names a missing required option by all its strings', () => {
    expect(parseArgv(sglang, ['--port', '1']).argparseError).toBe(
      'the following arguments are required: --model-path/--model',
    );
    expect(parseArgv(sglang043, []).argparseError).toBe('the following arguments are required: --model-path');
  });

  it('lists a repeated option once per occurrence', () => {
    const result = parseArgv(sglang, ['--model', 'm', '--port', '1', '--port', '2']);
    expect(result.options.filter((o) => o.resolved === '--port').map((o) => o.values)).toEqual([
      ['1'],
      ['2'],
    ]);
    expect(result.argparseError).toBeNull();
  });

  it('treats `_` as an unknown option (SGLang does not rewrite names)', () => {
    const result = parseArgv(sglang, ['--model', 'm', '--reasoning_parser', 'qwen3']);
    expect(result.argparseError).toBe('unrecognized arguments: --reasoning_parser qwen3');
  });

  it('takes a negative number as a value and everything after `--` as positional', () => {
    expect(parseArgv(sglang, ['--model', 'm', '--chunked-prefill-size', '-1']).argparseError).toBeNull();
    expect(parseArgv(sglang, ['--model', 'm', '--', '--port', '1']).argparseError).toBe(
      'unrecognized arguments: -- --port 1',
    );
  });

  it('notes a help request that argparse would act on instead of launching', () => {
    expect(parseArgv(sglang, ['--help', '--bogus']).helpIndex).toBe(0);
    expect(parseArgv(sglang, ['--port', 'x', '-h']).helpIndex).toBeNull();
  });

  it('maps every option string to its option', () => {
    const lookup = optionLookup(sglang);
    expect(lookup.get('--model')?.strings).toEqual(['--model-path', '--model']);
    expect(lookup.get('--tp-size')).toBe(lookup.get('--tensor-parallel-size'));
  });
});

describe('parseArgv on vLLM (FlexibleArgumentParser)', () => {
  it('accepts `_` for `-` and says the name was normalised', () => {
    const result = parseArgv(vllm, ['my/model', '--max_model_len', '4096', '--gpu_memory_utilization=0.8']);
    expect(result.argparseError).toBeNull();
    expect(result.positionals).toEqual([{ index: 0, value: 'my/model' }]);
    expect(result.options.map((o) => [o.typed, o.resolved, o.matchedBy, o.values])).toEqual([
      ['--max_model_len', '--max-model-len', 'normalized', ['4096']],
      ['--gpu_memory_utilization', '--gpu-memory-utilization', 'normalized', ['0.8']],
    ]);
  });

  it('reports unknown options in the rewritten spelling argparse saw, at the user index', () => {
    const result = parseArgv(vllm, ['m', '--context_length', '8192'], { offset: 2 });
    expect(result.argparseError).toBe('unrecognized arguments: --context-length 8192');
    expect(result.issues[0]).toMatchObject({ index: 3, arg: '--context_length' });
  });

  it('merges dotted JSON keys into one argument at the first key', () => {
    const result = parseArgv(vllm, [
      'm',
      '--speculative-config.num_speculative_tokens',
      '5',
      '--port',
      '8000',
      '--speculative-config.method=eagle3',
    ]);
    expect(result.argparseError).toBeNull();
    const spec = result.options.find((o) => o.resolved === '--speculative-config');
    expect(spec).toMatchObject({
      index: 1,
      matchedBy: 'normalized',
      typed: '--speculative-config.num_speculative_tokens',
    });
    expect(spec?.values).toEqual(['{"num_speculative_tokens": 5, "method": "eagle3"}']);
  });

  it('reads -O<n> and -O <n> as the optimisation level on releases without a -O option', () => {
    for (const argv of [
      ['m', '-O3'],
      ['m', '-O', '3'],
      ['m', '-O=3'],
    ]) {
      const result = parseArgv(vllm, argv);
      expect(result.argparseError).toBeNull();
      expect(result.options.map((o) => [o.resolved, o.values])).toEqual([['--optimization-level', ['3']]]);
    }
  });

  it('keeps -O as the real option on older releases', () => {
    const result = parseArgv(vllm066, ['m', '-O3', '--max_num_seqs', '8']);
    expect(result.argparseError).toBeNull();
    expect(result.options.map((o) => [o.resolved, o.values])).toEqual([
      ['-O', ['3']],
      ['--max-num-seqs', ['8']],
    ]);
  });

  it('needs the positional model on releases where it is required', () => {
    expect(parseArgv(vllm066, ['--port', '8000']).argparseError).toBe(
      'the following arguments are required: model_tag',
    );
    expect(parseArgv(vllm, ['--port', '8000']).argparseError).toBeNull();
  });

  it('accepts short options as vLLM defines them', () => {
    expect(parseArgv(vllm, ['m', '-tp', '8', '-q', 'fp8', '-tp8']).argparseError).toBe(
      'unrecognized arguments: -tp8',
    );
    const result = parseArgv(vllm, ['m', '-qfp8']);
    expect(result.options[0]).toMatchObject({ resolved: '-q', values: ['fp8'] });
  });

  it('treats --help=all as a help request', () => {
    expect(parseArgv(vllm, ['--help=all']).helpIndex).toBe(0);
  });

  it('reports a dotted key with no value', () => {
    const result = parseArgv(vllm, ['m', '--speculative-config.method']);
    expect(result.issues[0]).toMatchObject({ kind: 'expected-value', index: 1 });
    expect(result.argparseError).not.toBeNull();
  });
});
