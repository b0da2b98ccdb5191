// `--engine-version` on diagnose, check and up: a release vigil knows replaces detection, anything else is refused
// with the known releases named, before any side effect.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import { checkEngineVersion, knownReleases } from '../../src/engines/known-releases.ts';
import { UsageError } from '../../src/errors.ts';
import { runMain } from '../helpers/main.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vigil-engine-version-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({ ...process.env, XDG_STATE_HOME: join(dir, 'state') });

// SGLang printed `Rank 0 scheduler is dead` before 0.5.10; later releases print another line.
const DEAD = ['[2025-06-01 10:00:00] Rank 0 scheduler is dead. Please check if there are relevant logs.'];

const diagnose = (lines: string[], engineVersion?: string) => {
  const diagnoser = createDiagnoser({
    engine: 'sglang',
    ...(engineVersion === undefined ? {} : { engineVersion }),
  });
  lines.forEach((text, i) => {
    diagnoser.push({ line: i + 1, text });
  });
  return diagnoser.finish({});
};

describe('the releases vigil knows', () => {
  it('lists bundled tables, catalogues and main, oldest first', () => {
    const sglang = knownReleases('sglang');
    expect(sglang).toContain('0.5.18');
    expect(sglang.at(-1)).toBe('main');
    expect(sglang.indexOf('0.5.9')).toBeLessThan(sglang.indexOf('0.5.18'));
    expect(knownReleases('tgi')).toContain('3.3.7');
    expect(knownReleases('generic')).toEqual([]);
  });

  it('accepts a known release and refuses others, naming the known ones', () => {
    expect(checkEngineVersion('vllm', '0.19.1')).toBe('0.19.1');
    expect(checkEngineVersion('auto', '3.3.7')).toBe('3.3.7');
    expect(() => checkEngineVersion('vllm', '0.5.18')).toThrow(UsageError);
    try {
      checkEngineVersion('sglang', '9.9.9');
      expect.unreachable();
    } catch (error) {
      expect((error as UsageError).message).toContain('9.9.9');
      expect((error as UsageError).hint).toContain('0.5.18');
    }
    expect(() => checkEngineVersion('generic', '0.5.18')).toThrow(/named engine/);
  });
});

describe('the diagnoser under a given release', () => {
  it("uses that release's rules instead of the one the log names", () => {
    expect(diagnose(DEAD, '0.5.9').class).toBe('killed');
    // 0.5.18 no longer prints this line: the rule does not hold, so the log shows no known failure.
    expect(diagnose(DEAD, '0.5.18').class).not.toBe('killed');
  });
});

describe('vigil diagnose --engine-version', () => {
  it('reads the log with the given release, and refuses an unknown one before reading', async () => {
    const log = join(dir, 'server.log');
    await writeFile(log, `${DEAD.join('\n')}\n`);
    const old = await runMain([
      'diagnose',
      '--engine',
      'sglang',
      '--engine-version',
      '0.5.9',
      '--output',
      'jsonl',
      log,
    ]);
    expect(old.code).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ class: 'killed' });
    const bad = await runMain([
      'diagnose',
      '--engine',
      'sglang',
      '--engine-version',
      '0.5.99',
      join(dir, 'missing.log'),
    ]);
    expect(bad.code).toBe(1);
    // The version is refused first (the missing file would be the next complaint).
    expect(bad.stderr).toContain('--engine-version');
    expect(bad.stderr).toContain('0.5.18');
  });
});

describe('vigil check --engine-version', () => {
  it("checks against that release's table", async () => {
    const command = ['--', 'vllm', 'serve', 'm', '--num-speculative-tokens', '4'];
    const main = await runMain(['check', '--engine-version', 'main', '--output', 'jsonl', ...command], env());
    const old = await runMain(
      ['check', '--engine-version', '0.19.1', '--output', 'jsonl', ...command],
      env(),
    );
    expect(main.stdout).toContain('--spec-tokens');
    expect(old.stdout).toContain('--speculative-config');
    expect(old.stdout).not.toContain('--spec-tokens');
  });

  it('refuses an unknown release with exit 1, naming the known ones', async () => {
    const run = await runMain(['check', '--engine-version', '0.99', '--', 'vllm', 'serve', 'm'], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('0.20.1');
  });
});

describe('vigil up --engine-version', () => {
  it('refuses an unknown release before anything starts', async () => {
    const run = await runMain(
      [
        'up',
        '--engine-version',
        '0.4.0',
        '--output',
        'jsonl',
        '--',
        'vigil',
        'sim',
        'vllm',
        '--',
        'serve',
        'm',
      ],
      env(),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--engine-version');
    expect(run.stderr).toContain('0.19.1');
    // Nothing was launched: no launch record, no log.
    const state = await readdir(join(dir, 'state')).catch(() => []);
    expect(state).toEqual([]);
  });
});

describe('EAGLE-3 key layout advice', () => {
  const keyError = ["KeyError: 'layers.0.self_attn.qkv_proj.weight'"];
  it('names the SGLang release that reads layers.0.* natively, not a pull request', () => {
    const advice = diagnose(keyError).advice.join(' ');
    expect(advice).toContain('SGLang 0.5.12 and later load `layers.0.*` natively');
    expect(advice).toContain('older releases read only `midlayer.*`');
    expect(advice).not.toMatch(/PR #?\d+/);
  });

  it('says which layout the given release reads', () => {
    expect(diagnose(keyError, '0.5.10').advice.join(' ')).toContain('SGLang 0.5.10 reads only `midlayer.*`');
    expect(diagnose(keyError, '0.5.18').advice.join(' ')).toContain(
      'SGLang 0.5.18 reads `layers.0.*` and `midlayer.*`',
    );
  });
});
