// `vigil ckpt` through the real CLI (node bin/vigil.js): the acceptance scenario, refusals, output formats.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DTYPE_BITS } from '../../src/ckpt/dtypes.ts';
import { writeSafetensors } from '../../src/ckpt/encode.ts';
import { readHeader } from '../../src/ckpt/header.ts';
import { fileSource } from '../../src/ckpt/source.ts';
import { runMain } from '../helpers/main.ts';
import { runVigil } from '../helpers/cli.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { SPECULATORS_KEYS, writeDrafter } from './drafter.ts';
import { MALFORMED } from './malformed.ts';

afterEach(removeTempDirs);

const tensorHashes = async (path: string): Promise<Record<string, string>> => {
  const header = await readHeader(fileSource(path));
  const file = await readFile(path);
  return Object.fromEntries(
    header.tensors.map((t) => [
      t.name,
      createHash('sha256')
        .update(file.subarray(header.dataStart + t.dataOffsets[0], header.dataStart + t.dataOffsets[1]))
        .digest('hex'),
    ]),
  );
};

const drafter = async (): Promise<string> => {
  const dir = join(await makeTempDir('vigil-ckpt-'), 'drafter');
  await writeDrafter(dir);
  return dir;
};

describe('acceptance: a speculators drafter re-keyed for SGLang', () => {
  it('check-draft 0.5.11 fails before and passes after; 0.5.18 passes both; bytes unchanged; config set', async () => {
    const dir = await drafter();
    const file = join(dir, 'model.safetensors');
    const before = await tensorHashes(file);

    const old = await runVigil([
      'ckpt',
      'check-draft',
      dir,
      '--engine',
      'sglang',
      '--engine-version',
      '0.5.11',
    ]);
    expect(old.code).toBe(2);
    expect(old.stdout).toContain('loader: midlayer only');
    expect(old.stdout).toContain('would silently skip 10 draft weights');
    expect(old.stdout).toContain('[draft-skipped-weights]');
    expect(old.stdout).toContain(`vigil ckpt rename ${dir} --preset eagle3-speculators-to-sglang`);

    const newer = await runVigil([
      'ckpt',
      'check-draft',
      dir,
      '--engine',
      'sglang',
      '--engine-version',
      '0.5.18',
    ]);
    expect(newer.code).toBe(0);
    expect(newer.stdout).not.toContain('error:');
    expect(newer.stdout).toContain('loader: layers.{i} with midlayer.* renamed onto layers.0');

    const rename = await runVigil(['ckpt', 'rename', dir, '--preset', 'eagle3-speculators-to-sglang']);
    expect(rename.stderr).toBe('');
    expect(rename.code).toBe(0);
    expect(rename.stdout).toContain('layers.0.self_attn.q_proj.weight');
    expect(rename.stdout).toContain('midlayer.self_attn.q_proj.weight');
    expect(rename.stdout).toContain('renamed 10 tensors');

    const after = await tensorHashes(file);
    expect(Object.keys(after).sort()).toEqual(
      Object.keys(SPECULATORS_KEYS)
        .map((n) => n.replace(/^layers\.0\./, 'midlayer.'))
        .sort(),
    );
    for (const [name, hash] of Object.entries(before)) {
      expect(after[name.replace(/^layers\.0\./, 'midlayer.')]).toBe(hash);
    }
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config['architectures']).toEqual(['LlamaForCausalLMEagle3']);

    const fixed = await runVigil([
      'ckpt',
      'check-draft',
      dir,
      '--engine',
      'sglang',
      '--engine-version',
      '0.5.11',
    ]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('ok: SGLang 0.5.11 loads every tensor');
    const fixedNewer = await runVigil([
      'ckpt',
      'check-draft',
      dir,
      '--engine',
      'sglang',
      '--engine-version',
      '0.5.18',
    ]);
    expect(fixedNewer.code).toBe(0);
    expect(fixedNewer.stdout).toContain('ok: SGLang 0.5.18 loads every tensor');
  });

  it('without --engine-version, check-draft says which release and loader it assumed', async () => {
    const dir = await drafter();
    const run = await runVigil(['ckpt', 'check-draft', dir, '--engine', 'sglang', '--output', 'json']);
    expect(run.code).toBe(0);
    const check = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(check).toMatchObject({
      engine: 'sglang',
      version: '0.5.18',
      version_source: 'newest-bundled',
      layout: 'speculators-eagle3',
    });
    expect(String(check['generation'])).toContain('midlayer.* renamed onto layers.0');
    const plain = await runVigil(['ckpt', 'check-draft', dir, '--engine', 'sglang']);
    expect(plain.stdout).toContain(
      'against SGLang 0.5.18 (no --engine-version: assumed the newest release vigil knows',
    );
  });

  it('vLLM reads either layout', async () => {
    const dir = await drafter();
    const run = await runVigil(['ckpt', 'check-draft', dir, '--engine', 'vllm']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ok: vLLM');
  });
});

describe('vigil ckpt inspect', () => {
  it('reports tensors, metadata, config and layout as JSON, before and after the preset', async () => {
    const dir = await drafter();
    const run = await runVigil(['ckpt', 'inspect', dir, '--output', 'json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      layout: string;
      files: {
        metadata: unknown;
        tensors: { name: string; dtype: string; shape: number[]; bytes: number }[];
      }[];
      config: Record<string, unknown>;
      totals: { tensors: number };
    };
    expect(report.layout).toBe('speculators-eagle3');
    expect(report.totals.tensors).toBe(16);
    expect(report.files[0]?.metadata).toEqual({ format: 'pt' });
    expect(report.files[0]?.tensors.find((t) => t.name === 'fc.weight')).toEqual({
      name: 'fc.weight',
      dtype: 'BF16',
      shape: [16, 48],
      bytes: 1536,
      offsets: expect.any(Array) as unknown,
    });
    expect(report.config['speculators_model_type']).toBe('eagle3');
    await runVigil(['ckpt', 'rename', dir, '--preset', 'eagle3-speculators-to-sglang']);
    const plain = await runVigil(['ckpt', 'inspect', dir]);
    expect(plain.stdout).toContain('layout: SGLang EAGLE-3');
    expect(plain.stdout).toContain('metadata: format=pt');
    expect(plain.stdout).toMatch(/midlayer\.mlp\.up_proj\.weight\s+BF16\s+\[32,16\]\s+1024/);
  });
});

describe('vigil ckpt rename: options and refusals', () => {
  it('--dry-run prints the table and changes nothing', async () => {
    const dir = await drafter();
    const before = await readFile(join(dir, 'model.safetensors'));
    const run = await runVigil([
      'ckpt',
      'rename',
      dir,
      '--map',
      '^layers\\.0\\.(.+)$=>midlayer.$1',
      '--dry-run',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/layers\.0\.mlp\.up_proj\.weight\s+midlayer\.mlp\.up_proj\.weight/);
    expect(run.stdout).toContain('dry run: nothing was changed');
    expect((await readFile(join(dir, 'model.safetensors'))).equals(before)).toBe(true);
    expect(await readdir(dir)).toEqual(['config.json', 'model.safetensors']);
  });

  it('refuses a colliding map with exit 1 and a clear message', async () => {
    const dir = await drafter();
    const before = await readFile(join(dir, 'model.safetensors'));
    const run = await runVigil(['ckpt', 'rename', dir, '--map', '^(fc|norm)\\.weight$=>x.weight']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('vigil: the map sends two tensors to the same name');
    expect(run.stderr).toContain('nothing was changed');
    expect(run.stderr).not.toContain('    at ');
    expect((await readFile(join(dir, 'model.safetensors'))).equals(before)).toBe(true);
  });

  it('refuses an unknown preset and an unknown output kind', async () => {
    const dir = await drafter();
    const preset = await runVigil(['ckpt', 'rename', dir, '--preset', 'eagle2']);
    expect(preset.code).toBe(1);
    expect(preset.stderr).toContain(
      '--preset: expected eagle3-speculators-to-sglang or eagle3-sglang-to-speculators, got "eagle2"',
    );
    const output = await runVigil(['ckpt', 'inspect', dir, '--output', 'yaml']);
    expect(output.code).toBe(1);
    expect(output.stderr).toContain('--output: expected plain or json');
  });

  it('--output json reports the changes and the mode (in place when the header fits, else by copy)', async () => {
    const dir = await drafter();
    const file = join(dir, 'model.safetensors');
    type Out = { changes: { from: string; to: string }[]; files: { mode: string }[]; backups: string[] };
    const same = await runVigil([
      'ckpt',
      'rename',
      file,
      '--map',
      '^norm\\.weight$=>last.weight',
      '--output',
      'json',
    ]);
    expect(same.code).toBe(0);
    const inPlace = JSON.parse(same.stdout) as Out;
    expect(inPlace.changes).toEqual([expect.objectContaining({ from: 'norm.weight', to: 'last.weight' })]);
    expect(inPlace.files[0]?.mode).toBe('in-place');
    const grow = await runVigil([
      'ckpt',
      'rename',
      file,
      '--map',
      '^last\\.weight$=>a_much_longer_final_norm_name.weight',
      '--output',
      'json',
    ]);
    const copy = JSON.parse(grow.stdout) as Out;
    expect(copy.files[0]?.mode).toBe('copy');
    expect(copy.backups).toHaveLength(1);
    expect(copy.backups[0]).toMatch(/model\.safetensors\.\d{8}T\d{6}\.vigil-bak$/);
  });

  it('refuses every malformed file and leaves it byte-for-byte unchanged', async () => {
    const dir = await makeTempDir('vigil-ckpt-bad-');
    for (const c of MALFORMED) {
      const file = join(dir, 'model.safetensors');
      await writeFile(file, c.bytes);
      // In this process: a refusal launches nothing, and a Node process per case only cost time.
      const run = await runMain(['ckpt', 'rename', file, '--map', '^(.*)$=>renamed.$1']);
      expect(run.code, c.name).toBe(1);
      expect(run.stderr, c.name).toContain(c.says);
      expect(run.stderr, c.name).toContain('left it untouched');
      expect((await readFile(file)).equals(c.bytes), c.name).toBe(true);
      expect(await readdir(dir), c.name).toEqual(['model.safetensors']);
    }
  });
});

describe('preflight runs check-draft on a local draft folder', () => {
  const sglang = (dir: string): string[] => [
    'check',
    '--offline',
    '--',
    'python',
    '-m',
    'sglang.launch_server',
    '--model-path',
    'meta-llama/Llama-3.1-8B-Instruct',
    '--speculative-algorithm',
    'EAGLE3',
    '--speculative-draft-model-path',
    dir,
  ];

  it('blocks a drafter whose layer weights the assumed loader would skip, and passes it once re-keyed', async () => {
    const dir = await drafter();
    const state = await makeTempDir('vigil-state-');
    const env = { ...process.env, XDG_STATE_HOME: state };
    const before = await runVigil(sglang(dir), env);
    expect(before.code).toBe(2);
    expect(before.stdout).toContain('error[draft-skipped-weights]');
    expect(before.stdout).toContain('checked against the midlayer-only loader');
    await runVigil(['ckpt', 'rename', dir, '--preset', 'eagle3-speculators-to-sglang']);
    const after = await runVigil(sglang(dir), env);
    expect(after.code).toBe(0);
    expect(after.stdout).not.toContain('draft-');
  });

  it('reads the draft folder from vLLM --speculative-config and reports a name vLLM would stop on', async () => {
    const dir = await drafter();
    const state = await makeTempDir('vigil-state-');
    const env = { ...process.env, XDG_STATE_HOME: state };
    const tensors = Object.entries(SPECULATORS_KEYS).map(([name, [dtype, shape]]) => ({
      name,
      dtype,
      shape,
      data: Buffer.alloc((shape.reduce((p, d) => p * d, 1) * DTYPE_BITS[dtype]) / 8),
    }));
    tensors.push({ name: 'verifier_norm.weight', dtype: 'BF16', shape: [16], data: Buffer.alloc(32) });
    await writeSafetensors(join(dir, 'model.safetensors'), tensors, { format: 'pt' });
    const spec = JSON.stringify({ model: dir, method: 'eagle3', num_speculative_tokens: 3 });
    const run = await runVigil(
      ['check', '--offline', '--', 'vllm', 'serve', 'org/target', '--speculative-config', spec],
      env,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('error[draft-unknown-weights]');
    expect(run.stdout).toContain('verifier_norm.weight');
  });

  it('refuses an --engine-version that is not a release number', async () => {
    const dir = await drafter();
    const run = await runVigil([
      'ckpt',
      'check-draft',
      dir,
      '--engine',
      'sglang',
      '--engine-version',
      'latest; rm -rf /',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--engine-version: expected a release number such as 0.5.11');
  });
});
