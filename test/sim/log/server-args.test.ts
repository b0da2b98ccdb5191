import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../../src/flags/argparse/parse.ts';
import { loadBundledSchema } from '../../../src/flags/schema/bundled.ts';
import {
  formatNonDefaultArgs,
  formatServerArgs,
  pythonRepr,
  serverArgsJson,
} from '../../../src/sim/log/server-args.ts';

describe('pythonRepr', () => {
  it("writes values as Python's repr() does", () => {
    expect(pythonRepr(null)).toBe('None');
    expect(pythonRepr(true)).toBe('True');
    expect(pythonRepr(0.85, true)).toBe('0.85');
    expect(pythonRepr(1, true)).toBe('1.0');
    expect(pythonRepr(30000)).toBe('30000');
    expect(pythonRepr("it's")).toBe('"it\'s"');
    expect(pythonRepr('a\\b\n')).toBe("'a\\\\b\\n'");
    expect(pythonRepr(['x', 2, { k: false }])).toBe("['x', 2, {'k': False}]");
  });
});

describe('formatServerArgs', () => {
  it("prints every SGLang field with the command's values, the api key included verbatim", () => {
    const schema = loadBundledSchema('sglang');
    const argv = [
      '--model-path',
      '/models/big',
      '--tp-size',
      '8',
      '--api-key',
      'sk-live-1234',
      '--mem-fraction-static',
      '0.8',
      '--enable-metrics',
    ];
    const text = formatServerArgs(schema, parseArgv(schema, argv));
    expect(text).toMatch(/^ServerArgs\(model_path='\/models\/big', tokenizer_path='\/models\/big', /);
    expect(text).toContain("api_key='sk-live-1234'");
    expect(text).toContain(', tp_size=8, ');
    expect(text).toContain(', mem_fraction_static=0.8, ');
    expect(text).toContain(', enable_metrics=True, ');
    expect(text).toContain(", host='127.0.0.1', port=30000, ");
    expect(text.endsWith(')')).toBe(true);
    expect(serverArgsJson(schema, parseArgv(schema, argv))).toMatchObject({
      tp_size: 8,
      api_key: 'sk-live-1234',
      port: 30000,
    });
  });
});

describe('formatNonDefaultArgs', () => {
  it("lists what vLLM's command changed, model_tag first (vllm-dependency-01.log)", () => {
    const schema = loadBundledSchema('vllm');
    const argv = [
      'Qwen/Qwen2.5-VL-3B-Instruct',
      '--port',
      '8001',
      '--host',
      '0.0.0.0',
      '--dtype',
      'bfloat16',
    ];
    expect(formatNonDefaultArgs(schema, parseArgv(schema, argv))).toBe(
      "{'model_tag': 'Qwen/Qwen2.5-VL-3B-Instruct', 'host': '0.0.0.0', 'port': 8001, 'model': 'Qwen/Qwen2.5-VL-3B-Instruct', 'dtype': 'bfloat16'}",
    );
  });
});
