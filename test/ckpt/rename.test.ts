// Renaming tensors through the library: in place, by copy, sharded folders, presets, refusals.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSafetensors } from '../../src/ckpt/encode.ts';
import { CheckpointError } from '../../src/ckpt/errors.ts';
import { readHeader } from '../../src/ckpt/header.ts';
import { parseRule } from '../../src/ckpt/name-map.ts';
import { renameCheckpoint } from '../../src/ckpt/rename.ts';
import { fileSource } from '../../src/ckpt/source.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { drafterTensors, SPECULATORS_KEYS, writeDrafter } from './drafter.ts';

afterEach(removeTempDirs);

const sha = async (path: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

// name → the tensor's bytes, read through the header's offsets.
const tensorBytes = async (path: string): Promise<Map<string, string>> => {
  const header = await readHeader(fileSource(path));
  const file = await readFile(path);
  return new Map(
    header.tensors.map((t) => [
      t.name,
      createHash('sha256')
        .update(file.subarray(header.dataStart + t.dataOffsets[0], header.dataStart + t.dataOffsets[1]))
        .digest('hex'),
    ]),
  );
};

const renamedBytes = (before: Map<string, string>, rename: (n: string) => string): Map<string, string> =>
  new Map([...before].map(([name, hash]) => [rename(name), hash]));

const toMidlayer = (n: string): string => n.replace(/^layers\.0\./, 'midlayer.');

describe('rename with the eagle3-speculators-to-sglang preset', () => {
  it('renames the ten layer tensors in place, keeps every byte and the metadata, rewrites config.json', async () => {
    const dir = await makeTempDir();
    await writeDrafter(dir);
    const file = join(dir, 'model.safetensors');
    const before = await tensorBytes(file);
    const size = (await readFile(file)).length;
    const { plan, result } = await renameCheckpoint(dir, { preset: 'eagle3-speculators-to-sglang' });
    expect(plan.changes).toHaveLength(10);
    expect(result?.files[0]?.mode).toBe('in-place');
    expect(await tensorBytes(file)).toEqual(renamedBytes(before, toMidlayer));
    expect((await readFile(file)).length).toBe(size);
    const header = await readHeader(fileSource(file));
    expect(header.metadata).toEqual({ format: 'pt' });
    expect(header.tensors.map((t) => t.name).sort()).toEqual(
      Object.keys(SPECULATORS_KEYS).map(toMidlayer).sort(),
    );
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config['architectures']).toEqual(['LlamaForCausalLMEagle3']);
    expect(config['hidden_size']).toBe(16);
    expect(config['model_type']).toBe('llama');
    expect(config['speculators_config']).toBeUndefined();
    expect(config['transformer_layer_config']).toBeUndefined();
    expect((await readdir(dir)).filter((n) => n.endsWith('.safetensors'))).toEqual(['model.safetensors']);
    expect((await readdir(dir)).some((n) => n.startsWith('.'))).toBe(false);
  });

  it('the reverse preset restores the original names and a speculators config', async () => {
    const dir = await makeTempDir();
    await writeDrafter(dir);
    const file = join(dir, 'model.safetensors');
    const original = await sha(file);
    await renameCheckpoint(dir, { preset: 'eagle3-speculators-to-sglang', backup: false });
    await renameCheckpoint(dir, { preset: 'eagle3-sglang-to-speculators', backup: false });
    expect(await sha(file)).toBe(original);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config['speculators_model_type']).toBe('eagle3');
    expect((config['transformer_layer_config'] as Record<string, unknown>)['hidden_size']).toBe(16);
  });
});

describe('rename by copy', () => {
  it('rewrites through a temp file when the header grows, keeps data bytes and a backup that is not *.safetensors', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'model.safetensors');
    await writeSafetensors(file, drafterTensors(), { format: 'pt' });
    const before = await tensorBytes(file);
    const original = await sha(file);
    const longer = (n: string): string =>
      n.replace(/^layers\.0\./, 'model.layers.0.decoder_layer_with_a_long_name.');
    const { result } = await renameCheckpoint(file, {
      rules: [parseRule('^layers\\.0\\.(.+)$=>model.layers.0.decoder_layer_with_a_long_name.$1')],
    });
    expect(result?.files[0]?.mode).toBe('copy');
    expect(result?.files[0]?.verified).toBe('header+data');
    expect(['kernel', 'stream']).toContain(result?.files[0]?.copy);
    expect(await tensorBytes(file)).toEqual(renamedBytes(before, longer));
    const names = await readdir(dir);
    const backup = names.find((n) => n.endsWith('.vigil-bak'));
    expect(backup).toBeDefined();
    expect(await sha(join(dir, backup!))).toBe(original);
    expect(names.filter((n) => n.endsWith('.safetensors'))).toEqual(['model.safetensors']);
  });

  it('streams the data through buffers when asked (the fallback where the kernel copy is unavailable)', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'model.safetensors');
    await writeSafetensors(file, drafterTensors(), { format: 'pt' });
    const before = await tensorBytes(file);
    const { result } = await renameCheckpoint(file, {
      rules: [parseRule('^layers\\.0\\.(.+)$=>model.layers.0.decoder_layer_with_a_long_name.$1')],
      streamCopy: true,
      backup: false,
    });
    expect(result?.files[0]).toMatchObject({ mode: 'copy', copy: 'stream', verified: 'header+data' });
    const longer = (n: string): string =>
      n.replace(/^layers\.0\./, 'model.layers.0.decoder_layer_with_a_long_name.');
    expect(await tensorBytes(file)).toEqual(renamedBytes(before, longer));
    expect(await readdir(dir)).toEqual(['model.safetensors']);
  });

  it('--no-backup leaves only the renamed file', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'model.safetensors');
    await writeSafetensors(file, drafterTensors());
    await renameCheckpoint(file, {
      rules: [parseRule('^(.+)$=>renamed.$1')],
      backup: false,
      forceCopy: true,
    });
    expect(await readdir(dir)).toEqual(['model.safetensors']);
    const header = await readHeader(fileSource(file));
    expect(header.tensors.every((t) => t.name.startsWith('renamed.'))).toBe(true);
  });
});

describe('sharded folders', () => {
  it('renames across shards and updates the index weight_map', async () => {
    const dir = await makeTempDir();
    const tensors = drafterTensors();
    const first = tensors.filter((t) => t.name.startsWith('layers.'));
    const second = tensors.filter((t) => !t.name.startsWith('layers.'));
    await writeSafetensors(join(dir, 'model-00001-of-00002.safetensors'), first, { format: 'pt' });
    await writeSafetensors(join(dir, 'model-00002-of-00002.safetensors'), second, { format: 'pt' });
    const weightMap: Record<string, string> = Object.fromEntries([
      ...first.map((t): [string, string] => [t.name, 'model-00001-of-00002.safetensors']),
      ...second.map((t): [string, string] => [t.name, 'model-00002-of-00002.safetensors']),
    ]);
    await writeFile(
      join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ metadata: { total_size: 1 }, weight_map: weightMap }),
    );
    const { plan } = await renameCheckpoint(dir, {
      rules: [parseRule('^layers\\.0\\.(.+)$=>midlayer.$1'), parseRule('^norm\\.weight$=>final_norm.weight')],
    });
    expect(plan.changes).toHaveLength(11);
    const index = JSON.parse(await readFile(join(dir, 'model.safetensors.index.json'), 'utf8')) as {
      weight_map: Record<string, string>;
      metadata: unknown;
    };
    expect(index.metadata).toEqual({ total_size: 1 });
    expect(index.weight_map['midlayer.mlp.up_proj.weight']).toBe('model-00001-of-00002.safetensors');
    expect(index.weight_map['final_norm.weight']).toBe('model-00002-of-00002.safetensors');
    expect(index.weight_map['layers.0.mlp.up_proj.weight']).toBeUndefined();
    expect((await readdir(dir)).some((n) => n.startsWith('.vigil') || n.includes('journal'))).toBe(false);
  });

  it('refuses to rename one indexed shard on its own', async () => {
    const dir = await makeTempDir();
    const shard = join(dir, 'model-00001-of-00001.safetensors');
    await writeSafetensors(shard, drafterTensors());
    const weightMap = Object.fromEntries(
      drafterTensors().map((t) => [t.name, 'model-00001-of-00001.safetensors']),
    );
    await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: weightMap }));
    const before = await sha(shard);
    const error = (await renameCheckpoint(shard, { rules: [parseRule('^(.+)$=>x.$1')] }).catch(
      (e: unknown) => e,
    )) as CheckpointError;
    expect(error.message).toContain('is a shard listed in model.safetensors.index.json');
    expect(error.hint).toContain('pass the folder');
    expect(await sha(shard)).toBe(before);
  });
});

describe('refusals change nothing', () => {
  it('a map that sends two tensors to one name', async () => {
    const dir = await makeTempDir();
    await writeDrafter(dir);
    const file = join(dir, 'model.safetensors');
    const before = await sha(file);
    const config = await readFile(join(dir, 'config.json'), 'utf8');
    const error = await renameCheckpoint(dir, {
      rules: [parseRule('^layers\\.0\\.mlp\\.(gate|up)_proj\\.weight$=>layers.0.mlp.fused.weight')],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).problem).toBe('NameCollision');
    expect((error as CheckpointError).message).toContain(
      '"layers.0.mlp.gate_proj.weight" and "layers.0.mlp.up_proj.weight" would both become "layers.0.mlp.fused.weight"',
    );
    expect(await sha(file)).toBe(before);
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(config);
  });

  it('a map onto a name that another tensor keeps', async () => {
    const dir = await makeTempDir();
    await writeDrafter(dir);
    await expect(renameCheckpoint(dir, { rules: [parseRule('^fc\\.weight$=>norm.weight')] })).rejects.toThrow(
      /same name/,
    );
  });

  it('an invalid regular expression or a rule without =>', () => {
    expect(() => parseRule('(=>x')).toThrow(/not a valid regular expression/);
    expect(() => parseRule('layers.0')).toThrow(/expected REGEX=>REPLACEMENT/);
  });

  it('a dry run', async () => {
    const dir = await makeTempDir();
    await writeDrafter(dir);
    const before = await sha(join(dir, 'model.safetensors'));
    const { plan, result } = await renameCheckpoint(dir, {
      preset: 'eagle3-speculators-to-sglang',
      dryRun: true,
    });
    expect(result).toBeNull();
    expect(plan.changes.map((c) => c.to)).toContain('midlayer.self_attn.q_proj.weight');
    expect(await sha(join(dir, 'model.safetensors'))).toBe(before);
    expect(await readdir(dir)).toEqual(['config.json', 'model.safetensors']);
  });
});

describe('one rewrite at a time', () => {
  it('refuses while a live process holds the folder lock, and takes over a dead one', async () => {
    const dir = await makeTempDir();
    await writeDrafter(dir);
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await writeFile(join(dir, '.vigil-ckpt.lock'), String(holder.pid));
      const before = await sha(join(dir, 'model.safetensors'));
      await expect(renameCheckpoint(dir, { preset: 'eagle3-speculators-to-sglang' })).rejects.toThrow(
        `another vigil process (pid ${String(holder.pid)}) is rewriting this checkpoint`,
      );
      expect(await sha(join(dir, 'model.safetensors'))).toBe(before);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    const { result } = await renameCheckpoint(dir, { preset: 'eagle3-speculators-to-sglang' });
    expect(result?.files[0]?.mode).toBe('in-place');
    expect((await readdir(dir)).some((n) => n.startsWith('.'))).toBe(false);
  });
});

describe('--verify-data', () => {
  it('hashes the data around an in-place rewrite', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'model.safetensors');
    await writeSafetensors(file, drafterTensors());
    const { result } = await renameCheckpoint(file, {
      rules: [parseRule('^layers\\.0\\.(.+)$=>midlayer.$1')],
      verifyData: true,
    });
    expect(result?.files[0]).toMatchObject({ mode: 'in-place', verified: 'header+data' });
  });
});
