// `vigil check` through the real CLI (node bin/vigil.js): exit codes, plain and jsonl output.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PreflightEvent } from '../../src/events.ts';
import type { FlagsJsonAction } from '../../src/flags/schema/schema.ts';
import { runVigil } from '../helpers/cli.ts';
import { renderHelp } from './render-help.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/flags/', import.meta.url));
const SGLANG = ['python', '-m', 'sglang.launch_server'];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-check-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The state dir points into the temp dir, so nothing is written to the real home.
const env = (): NodeJS.ProcessEnv => ({ ...process.env, XDG_STATE_HOME: dir });
const preflightOf = (stdout: string): PreflightEvent => {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '') as PreflightEvent;
};

describe('vigil check (acceptance)', () => {
  it('exits 2 on the seed mistake, suggests --speculative-num-draft-tokens and names vLLM', async () => {
    const run = await runVigil(
      ['check', '--offline', '--', ...SGLANG, '--model-path', 'm', '--num-speculative-tokens', '16'],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      'error[unknown-option]: --num-speculative-tokens is not an SGLang v0.5.18 option',
    );
    expect(run.stdout).toContain("it is vLLM's spelling");
    expect(run.stdout).toContain('did you mean --speculative-num-draft-tokens');
    expect(run.stdout).toMatch(/\n {48}\^{24}\n/);
    expect(run.stdout).toContain(
      'checked against bundled SGLang v0.5.18 (data/flags/sglang-v0.5.18.flags.json)',
    );
    expect(run.stderr).toBe('');
  });

  it('validates against a --help-file printed at another width, program name and Python layout', async () => {
    const table = JSON.parse(
      await readFile(join(FIXTURES, 'sglang-v0.5.9.flags.json'), 'utf8'),
    ) as FlagsJsonAction[];
    const helpFile = join(dir, 'help.txt');
    await writeFile(
      helpFile,
      renderHelp(table, { prog: 'launch_server.py', width: 64, layout: 'py313', ansi: true }),
    );
    const valid = [
      ...SGLANG,
      '--model-path',
      'org/m',
      '--tp-size',
      '8',
      '--speculative-ngram-branch-length',
      '18',
      '--enable-nan-detection',
    ];
    const ok = await runVigil(['check', '--help-file', helpFile, '--output', 'jsonl', '--', ...valid], env());
    expect(ok.code).toBe(0);
    const okEvent = preflightOf(ok.stdout);
    expect(okEvent).toMatchObject({ type: 'preflight', status: 'ok', findings: [] });
    expect(okEvent.source).toEqual({ kind: 'help-file', engine: 'sglang', version: null, path: helpFile });
    expect(typeof okEvent.t).toBe('number');

    for (const [typed, intended] of [
      ['--num-speculative-tokens', '--speculative-num-draft-tokens'],
      ['--mem_fraction_static', '--mem-fraction-static'],
      ['--ngram-speculative-capacity', '--speculative-ngram-capacity'],
    ] as const) {
      const bad = await runVigil(
        ['check', '--help-file', helpFile, '--output', 'jsonl', '--', ...valid, typed, '3'],
        env(),
      );
      expect(bad.code).toBe(2);
      const event = preflightOf(bad.stdout);
      expect(event.status).toBe('errors');
      expect(event.findings[0]).toMatchObject({ code: 'unknown-option', index: valid.length, arg: typed });
      expect(event.findings[0]?.suggestions[0]).toBe(intended);
    }
  });

  it('skips a command without a recognised entrypoint and exits 0', async () => {
    const run = await runVigil(['check', '--', './serve.sh', '--port', '1'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^preflight skipped: no recognised engine entrypoint/);
  });

  it('exits 0 on warnings, 2 on warnings with --strict', async () => {
    const command = ['--', ...SGLANG, '--model-path', 'm', '--port', '1', '--port', '2'];
    expect((await runVigil(['check', '--offline', ...command], env())).code).toBe(0);
    const strict = await runVigil(['check', '--offline', '--strict', ...command], env());
    expect(strict.code).toBe(2);
    expect(strict.stdout).toContain('warning[repeated-option]');
  });

  it('exits 1 on a usage error, naming the option', async () => {
    const run = await runVigil(['check', '--output', 'xml', '--', 'vllm', 'serve', 'm'], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--output: expected plain, jsonl, json or tty, got "xml"');
    const missing = await runVigil(
      ['check', '--help-file', join(dir, 'nope.txt'), '--', 'vllm', 'serve', 'm'],
      env(),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--help-file: cannot read');
  });

  it('never prints an API key', async () => {
    const run = await runVigil(
      ['check', '--offline', '--', 'vllm', 'serve', 'm', '--api-key', 'topsecret-999', '--bogus-flag'],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain('topsecret-999');
    expect(run.stdout).toContain('***');
  });
});
