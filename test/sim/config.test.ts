import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/flags/argparse/parse.ts';
import { loadBundledSchema } from '../../src/flags/schema/bundled.ts';
import { buildSimConfig } from '../../src/sim/config.ts';

const build = (engine: 'sglang' | 'vllm', argv: string[]) =>
  buildSimConfig(engine, parseArgv(loadBundledSchema(engine), argv));

describe('buildSimConfig', () => {
  it("uses each engine's own defaults for host and port", () => {
    expect(build('sglang', ['--model-path', 'm'])).toMatchObject({
      ok: true,
      config: {
        host: '127.0.0.1',
        port: 30000,
        tpSize: 1,
        apiKeys: [],
        speculative: null,
        servedModelName: 'm',
        enableMetrics: false,
      },
    });
    expect(build('vllm', ['org/m'])).toMatchObject({
      ok: true,
      config: { host: '0.0.0.0', port: 8000, modelPath: 'org/m', enableMetrics: true },
    });
  });

  it('reads the speculative settings of both engines', () => {
    const sglang = build('sglang', [
      '--model-path',
      'm',
      '--speculative-algorithm',
      'EAGLE3',
      '--speculative-num-steps',
      '15',
      '--speculative-num-draft-tokens',
      '16',
    ]);
    expect(sglang).toMatchObject({
      config: { speculative: { algorithm: 'EAGLE3', numSteps: 15, eagleTopk: 1, numDraftTokens: 16 } },
    });
    const vllm = build('vllm', [
      'm',
      '--speculative-config',
      '{"method":"eagle3","model":"/d","num_speculative_tokens":5}',
    ]);
    expect(vllm).toMatchObject({
      config: { speculative: { algorithm: 'eagle3', draftModelPath: '/d', numDraftTokens: 6 } },
    });
  });

  it('reports a non-integer port as argparse would', () => {
    expect(build('sglang', ['--model-path', 'm', '--port', 'http'])).toEqual({
      ok: false,
      message: "argument --port: invalid int value: 'http'",
    });
  });

  it("refuses a rank count beyond vigil's limit before anything starts", () => {
    expect(() => build('sglang', ['--model-path', 'm', '--tp-size', '100'])).toThrow(
      /tensor parallel size: expected a size from 1 to 64/,
    );
  });
});
