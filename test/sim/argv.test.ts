import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSimArgv } from '../../src/sim/argv.ts';

describe('checkSimArgv', () => {
  it("accepts vLLM's command with or without the leading serve", async () => {
    const withServe = await checkSimArgv('vllm', ['serve', 'org/m', '--port', '9000'], 78);
    const without = await checkSimArgv('vllm', ['org/m', '--port', '9000'], 78);
    expect(withServe.ok && withServe.result.positionals).toEqual([{ index: 0, value: 'org/m' }]);
    expect(without.ok && without.result.positionals.map((p) => p.value)).toEqual(['org/m']);
  });

  it('prints the usage to stdout and exits 0 for --help', async () => {
    const help = await checkSimArgv('sglang', ['--help'], 78);
    expect(help).toMatchObject({ ok: false, stream: 'stdout', code: 0 });
    expect(!help.ok && help.text).toMatch(/^usage: launch_server\.py \[-h\] --model-path MODEL_PATH\n/);
  });

  it("reports vLLM's invalid choices from the serve parser", async () => {
    const bad = await checkSimArgv('vllm', ['m', '--dtype', 'fp7'], 78);
    expect(bad).toMatchObject({ ok: false, stream: 'stderr', code: 2 });
    expect(!bad.ok && bad.text).toMatch(
      /^usage: vllm serve \[model_tag\] \[options\]\nvllm serve: error: argument --dtype: invalid choice: 'fp7'/,
    );
  });

  it('merges a --config YAML file ahead of the typed flags, and stops with a ValueError on a missing one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-sim-config-'));
    try {
      const path = join(dir, 'serve.yaml');
      await writeFile(path, 'model-path: org/model\nport: 30001\n');
      const merged = await checkSimArgv('sglang', ['--config', path, '--port', '30002'], 78);
      const ports = merged.ok ? merged.result.options.filter((o) => o.option.dest === 'port') : [];
      expect(ports.map((o) => o.values)).toEqual([['30001'], ['30002']]);
      const missing = await checkSimArgv('sglang', ['--config', join(dir, 'none.yaml')], 78);
      expect(missing).toMatchObject({ ok: false, stream: 'stderr', code: 1 });
      expect(!missing.ok && missing.text).toMatch(/^ValueError: .*none\.yaml/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
