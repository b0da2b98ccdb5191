// `--config FILE.yaml`: the file's flags are merged ahead of the typed ones and checked, real files on disk.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeConfigFile } from '../../src/flags/checks/config-file.ts';
import { loadBundledSchema, NEWEST_BUNDLED } from '../../src/flags/schema/bundled.ts';
import { runPreflight } from '../../src/flags/preflight.ts';
import { localHost } from '../../src/hosts/local.ts';

const SGLANG = ['python', '-m', 'sglang.launch_server'];
const VLLM = ['vllm', 'serve'];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

const check = (command: string[]) => runPreflight({ command, offline: true, cacheDir: join(dir, 'cache') });

describe('mergeConfigFile', () => {
  it('turns keys into flags the way the engines do, file first, and drops --config FILE', async () => {
    const path = await file(
      'serve.yaml',
      [
        'model-path: org/model',
        'tp-size: 2',
        'enable-metrics: true',
        'disable-cuda-graph: false',
        'json-model-override-args:',
        '  rope_scaling: {factor: 2.0}',
        'cuda-graph-bs: [1, 2, 4]',
        'mem-fraction-static: 0.8',
      ].join('\n'),
    );
    const schema = loadBundledSchema('sglang', NEWEST_BUNDLED.sglang);
    const merged = await mergeConfigFile(schema, ['--config', path, '--port', '30001'], 3, localHost);
    expect(merged.problem).toBeNull();
    expect(merged.args).toEqual([
      '--model-path',
      'org/model',
      '--tp-size',
      '2',
      '--enable-metrics',
      '--json-model-override-args',
      '{"rope_scaling":{"factor":2}}',
      '--cuda-graph-bs',
      '1',
      '2',
      '4',
      '--mem-fraction-static',
      '0.8',
      '--port',
      '30001',
    ]);
    expect(merged.origins[0]).toEqual({ kind: 'config', line: 1, key: 'model-path' });
    expect(merged.origins[4]).toEqual({ kind: 'config', line: 3, key: 'enable-metrics' });
    expect(merged.origins.slice(-2)).toEqual([
      { kind: 'command', index: 5 },
      { kind: 'command', index: 6 },
    ]);
  });

  it('leaves a command without --config as it is', async () => {
    const schema = loadBundledSchema('sglang', NEWEST_BUNDLED.sglang);
    const merged = await mergeConfigFile(schema, ['--model-path', 'm'], 3, localHost);
    expect(merged).toEqual({
      args: ['--model-path', 'm'],
      origins: [
        { kind: 'command', index: 3 },
        { kind: 'command', index: 4 },
      ],
      path: null,
      problem: null,
    });
  });
});

describe('preflight with --config', () => {
  it('counts flags set in the file: a model-path key satisfies the required --model-path', async () => {
    const path = await file('serve.yaml', 'model-path: org/model\nport: 30001\n');
    const outcome = await check([...SGLANG, '--config', path]);
    expect(outcome.report.findings).toEqual([]);
    expect(outcome.blocked).toBe(false);
  });

  it('names the file and line of a misspelt key or a bad value, with the usual suggestions', async () => {
    const path = await file(
      'serve.yaml',
      'model-path: org/model\nnum-speculative-tokens: 16\nattention-backend: flashinfr\n',
    );
    const outcome = await check([...SGLANG, '--config', path, '--port', '30001']);
    expect(outcome.blocked).toBe(true);
    const unknown = outcome.report.findings.find((f) => f.code === 'unknown-option');
    expect(unknown).toMatchObject({ index: null, arg: 'num-speculative-tokens' });
    expect(unknown?.message.startsWith(`${path}:2: `)).toBe(true);
    expect(unknown?.suggestions[0]).toBe('--speculative-num-draft-tokens');
    const choice = outcome.report.findings.find((f) => f.code === 'invalid-choice');
    expect(choice?.message.startsWith(`${path}:3: `)).toBe(true);
    expect(choice?.suggestions[0]).toBe('flashinfer');
  });

  it('still points at typed flags in the command', async () => {
    const path = await file('serve.yaml', 'model-path: org/model\n');
    const outcome = await check([...SGLANG, '--config', path, '--gpu-memory-utilization', '0.8']);
    expect(outcome.report.findings[0]).toMatchObject({ code: 'unknown-option', index: 5 });
  });

  it("reads a relative path from the server's working folder", async () => {
    await file('serve.yaml', 'model-path: org/model\n');
    const command = [...SGLANG, '--config', 'serve.yaml'];
    const there = await runPreflight({ command, offline: true, cacheDir: join(dir, 'cache'), cwd: dir });
    expect(there.report.findings).toEqual([]);
    const elsewhere = await runPreflight({
      command,
      offline: true,
      cacheDir: join(dir, 'cache'),
      cwd: tmpdir(),
    });
    expect(elsewhere.report.findings[0]?.code).toBe('config-file');
  });

  it('checks vLLM config keys too', async () => {
    const good = await file('good.yaml', 'model: org/model\nmax_model_len: 4096\nenforce-eager: true\n');
    expect((await check([...VLLM, '--config', good])).report.findings).toEqual([]);
    const bad = await file('bad.yaml', 'model-path: org/model\n');
    const outcome = await check([...VLLM, '--config', bad]);
    expect(outcome.report.findings[0]).toMatchObject({ code: 'unknown-option', arg: 'model-path' });
    expect(outcome.report.findings[0]?.suggestions[0]).toBe('--model');
  });

  it.each([
    [
      'a missing file',
      () => Promise.resolve(join(dir, 'missing.yaml')),
      /cannot be read where the server runs/,
    ],
    ['a file that is not YAML by name', async () => file('serve.json', '{}'), /only YAML files/],
    ['a list instead of a mapping', async () => file('list.yaml', '- a\n- b\n'), /must hold a mapping/],
    ['broken YAML', async () => file('broken.yaml', 'a: [1, 2\n'), /is not valid YAML/],
    [
      'a file over 1 MiB',
      async () => file('huge.yaml', `a: ${'x'.repeat(1024 * 1024)}\n`),
      /\(it is 1\.0 MiB, and engine config files are a few KB: vigil reads at most 1 MiB\)/,
    ],
    [
      'a FIFO (reading it would block)',
      () => {
        const path = join(dir, 'pipe.yaml');
        execFileSync('mkfifo', [path]);
        return Promise.resolve(path);
      },
      /\(it is not a regular file\)/,
    ],
  ])('stops on %s and points at the file name', async (_label, make, message) => {
    const path = await make();
    const outcome = await check([...SGLANG, '--model-path', 'm', '--config', path]);
    expect(outcome.blocked).toBe(true);
    expect(outcome.report.findings[0]).toMatchObject({ code: 'config-file', index: 6, arg: path });
    expect(outcome.report.findings[0]?.message).toMatch(message);
  });
});

describe('--config=FILE', () => {
  it('is not merged, and preflight warns that the engine ignores the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-config-eq-'));
    const file = join(dir, 'serve.yaml');
    await writeFile(file, 'tp-size: 3\n');
    const outcome = await runPreflight({
      command: ['python', '-m', 'sglang.launch_server', '--model-path', 'm', `--config=${file}`],
      offline: true,
    });
    const warning = outcome.report.findings.find((f) => f.code === 'config-ignored');
    expect(warning?.severity).toBe('warning');
    expect(warning?.message).toContain(`--config ${file}`);
    // The file's tp-size 3 was not merged: no finding names it.
    expect(outcome.report.findings.some((f) => f.message.includes('tp-size'))).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });
});
