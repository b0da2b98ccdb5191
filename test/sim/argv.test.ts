import { describe, expect, it } from 'vitest';
import { checkSimArgv } from '../../src/sim/argv.ts';

describe('checkSimArgv', () => {
  it("accepts vLLM's command with or without the leading serve", () => {
    const withServe = checkSimArgv('vllm', ['serve', 'org/m', '--port', '9000'], 78);
    const without = checkSimArgv('vllm', ['org/m', '--port', '9000'], 78);
    expect(withServe.ok && withServe.result.positionals).toEqual([{ index: 0, value: 'org/m' }]);
    expect(without.ok && without.result.positionals.map((p) => p.value)).toEqual(['org/m']);
  });

  it('prints the usage to stdout and exits 0 for --help', () => {
    const help = checkSimArgv('sglang', ['--help'], 78);
    expect(help).toMatchObject({ ok: false, stream: 'stdout', code: 0 });
    expect(!help.ok && help.text).toMatch(/^usage: launch_server\.py \[-h\] --model-path MODEL_PATH\n/);
  });

  it("reports vLLM's invalid choices from the serve parser", () => {
    const bad = checkSimArgv('vllm', ['m', '--dtype', 'fp7'], 78);
    expect(bad).toMatchObject({ ok: false, stream: 'stderr', code: 2 });
    expect(!bad.ok && bad.text).toMatch(
      /^usage: vllm serve \[model_tag\] \[options\]\nvllm serve: error: argument --dtype: invalid choice: 'fp7'/,
    );
  });
});
