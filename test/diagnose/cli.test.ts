// `vigil diagnose` end to end: the built CLI (`npm test` builds dist/ first; built here when missing).
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, readLines } from './fixture-logs.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'vigil.js');

const vigil = (args: string[], nodeArgs: string[] = []) =>
  spawnSync(process.execPath, [...nodeArgs, BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: ROOT },
    );
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-cli-diagnose-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('vigil diagnose', () => {
  it('acceptance: the EAGLE-3 midlayer KeyError, as one jsonl diagnosis event', () => {
    const run = vigil(['diagnose', join(FIXTURE_DIR, 'sglang-weight-mismatch-01.log'), '--output', 'jsonl']);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const event = JSON.parse(lines[0] ?? '') as Record<string, unknown> & {
      evidence: { line: number; text: string }[];
      advice: string[];
    };
    expect(event).toMatchObject({ type: 'diagnosis', class: 'weight-mismatch' });
    expect(typeof event['t']).toBe('number');
    expect(event.evidence).toContainEqual({
      line: 8,
      text: "KeyError: 'midlayer.self_attn.qkv_proj.weight'",
    });
    expect(event.advice.join(' ')).toMatch(/midlayer.*layers\.0|layers\.0.*midlayer/);
  });

  it('prints a readable explanation by default', () => {
    const run = vigil(['diagnose', join(FIXTURE_DIR, 'vllm-cuda-oom-01.log')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('cuda-oom: ');
    expect(run.stdout).toContain('line 3:');
    expect(run.stdout).toContain('--gpu-memory-utilization');
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('uses --exit-code and --engine', () => {
    const run = vigil([
      'diagnose',
      join(FIXTURE_DIR, 'sglang-hang-01.log'),
      '--exit-code',
      '137',
      '--engine',
      'sglang',
      '--output',
      'jsonl',
    ]);
    expect(run.status).toBe(0);
    const event = JSON.parse(run.stdout) as { class: string; summary: string };
    expect(event.class).toBe('killed');
    expect(event.summary).toContain('SIGKILL');
  });

  it('redacts secrets from the environment in evidence', () => {
    const path = join(dir, 'server.log');
    writeFileSync(path, 'OSError: You are trying to access a gated repo. token=hf_abcdefgh12345\n');
    const run = spawnSync(process.execPath, [BIN, 'diagnose', path, '--output', 'jsonl'], {
      encoding: 'utf8',
      env: { ...process.env, HF_TOKEN: 'hf_abcdefgh12345' },
    });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('hf_abcdefgh12345');
    expect(run.stdout).toContain('model-not-found-or-auth');
  });

  it('names a missing file and what to do, exit 1, no stack trace', () => {
    const missing = join(dir, 'nope.log');
    const run = vigil(['diagnose', missing]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`log file ${missing} does not exist`);
    expect(run.stderr).toContain("pass the server's log file");
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(vigil(['diagnose', dir]).stderr).toContain('is not a regular file');
  });

  it('rejects bad options with exit 1', () => {
    const log = join(FIXTURE_DIR, 'sglang-hang-01.log');
    const engine = vigil(['diagnose', log, '--engine', 'llamacpp']);
    expect(engine.status).toBe(1);
    expect(engine.stderr).toContain(
      '--engine: expected one of auto, sglang, vllm, tgi, generic, got "llamacpp"',
    );
    expect(vigil(['diagnose', log, '--exit-code', 'nine']).status).toBe(1);
    expect(vigil(['diagnose', log, '--output', 'xml']).status).toBe(1);
  });

  it('diagnoses a 32 MB log with a heap half the size of the file', async () => {
    const path = join(dir, 'big.log');
    const out = createWriteStream(path);
    out.write(
      `${readLines('sglang-ready-01.log')
        .slice(0, 30)
        .map((l) => l.text)
        .join('\n')}\n`,
    );
    // One line in eight is a health check the diagnoser reads (each costs it about 10 us of CPU); the file's
    // prefilter skips the rest.
    const idle = '[2025-09-11 11:00:00] INFO:     scheduler idle, 0 requests queued\n';
    const health = '[2025-09-11 11:00:00] INFO:     127.0.0.1:60028 - "GET /health HTTP/1.1" 200 OK\n';
    const noise = `${idle.repeat(7)}${health}`.repeat(2_000);
    for (let written = 0; written < 32 * 1024 * 1024; written += noise.length)
      if (!out.write(noise))
        await new Promise<void>((resolve) =>
          out.once('drain', () => {
            resolve();
          }),
        );
    out.end('Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 448.00 MiB.\n');
    await finished(out);
    // A 16 MB old-space limit: reading the 32 MB file into memory would abort the process.
    const run = vigil(['diagnose', path, '--output', 'jsonl'], ['--max-old-space-size=16']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ class: 'cuda-oom' });
  });
});
