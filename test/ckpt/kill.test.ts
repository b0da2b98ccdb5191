// kill -9 during a rename: a real `vigil ckpt rename` process is killed, then the next `vigil ckpt` run on
// the path repairs it. The file must then be byte-for-byte the old one or the new one, never anything else.
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeSafetensors } from '../../src/ckpt/encode.ts';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';
import { drafterTensors, speculatorsConfig } from './drafter.ts';

afterEach(removeTempDirs);

const hash = async (path: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

// The drafter plus one 20 MiB tensor, more than one copy chunk (16 MiB), so a rewrite by copy can be killed midway.
let big: Buffer | null = null;
const bigDrafter = (): Buffer => {
  big ??= serializeSafetensors(
    [
      ...drafterTensors(),
      { name: 'layers.0.big.weight', dtype: 'U8', shape: [20 << 20], data: randomBytes(20 << 20) },
    ],
    { format: 'pt' },
  );
  return big;
};

const MAP = ['--map', '^layers\\.0\\.(.+)$=>midlayer.$1'];
const COPY_MAP = ['--map', '^layers\\.0\\.(.+)$=>model.decoder.layers.0.$1'];

interface Expected {
  old: string;
  next: string;
  /** How long the uninterrupted run took (ms). */
  duration: number;
}

// What the file looks like before, and after an uninterrupted run of the same command (the same for every case
// that runs it on the big drafter: taken once per command).
const expectedRuns = new Map<string, Promise<Expected>>();
const expectedHashes = (dir: string, original: Buffer, args: string[]): Promise<Expected> => {
  const key = args.join('\n');
  const known = original === big ? expectedRuns.get(key) : undefined;
  if (known !== undefined) return known;
  const run = uninterruptedRun(dir, original, args);
  if (original === big) expectedRuns.set(key, run);
  return run;
};

const uninterruptedRun = async (dir: string, original: Buffer, args: string[]): Promise<Expected> => {
  const file = join(dir, 'reference.safetensors');
  await writeFile(file, original);
  const old = await hash(file);
  const started = performance.now();
  const run = await runVigil(['ckpt', 'rename', file, ...args, '--no-backup']);
  const duration = performance.now() - started;
  expect(run.code, run.stderr).toBe(0);
  const next = await hash(file);
  expect(next).not.toBe(old);
  return { old, next, duration };
};

// Runs the repairing `vigil ckpt inspect` and checks the file is exactly the old or the new one.
const repairAndCheck = async (dir: string, file: string, expected: Expected): Promise<'old' | 'new'> => {
  const inspect = await runVigil(['ckpt', 'inspect', file]);
  expect(inspect.code, inspect.stderr).toBe(0);
  const now = await hash(file);
  expect([expected.old, expected.next]).toContain(now);
  const stray = (await readdir(dir)).filter(
    (n) =>
      n.startsWith('.') ||
      (n.endsWith('.safetensors') && n !== 'model.safetensors' && n !== 'reference.safetensors'),
  );
  expect(stray).toEqual([]);
  return now === expected.old ? 'old' : 'new';
};

describe('kill -9 at each step of a rewrite', () => {
  const cases: { point: string; args: string[]; after: 'old' | 'new' }[] = [
    { point: 'after-header-copy', args: MAP, after: 'old' },
    { point: 'mid-header-write', args: MAP, after: 'old' },
    { point: 'after-header-write', args: MAP, after: 'new' },
    { point: 'mid-copy', args: COPY_MAP, after: 'old' },
    { point: 'before-swap', args: COPY_MAP, after: 'old' },
  ];
  for (const c of cases) {
    it(`${c.point}: the next run leaves the ${c.after} file`, async () => {
      const dir = await makeTempDir('vigil-kill-');
      const original = bigDrafter();
      const expected = await expectedHashes(dir, original, c.args);
      const file = join(dir, 'model.safetensors');
      await writeFile(file, original);
      const run = await runVigil(['ckpt', 'rename', file, ...c.args], {
        ...process.env,
        VIGIL_CKPT_CRASH_AT: c.point,
      });
      expect(run.signal).toBe('SIGKILL');
      if (c.point === 'mid-header-write') {
        const now = await hash(file);
        expect([expected.old, expected.next]).not.toContain(now);
      }
      expect(await repairAndCheck(dir, file, expected)).toBe(c.after);
    });
  }

  it('a folder rename killed after its first shard is rolled back as a whole', async () => {
    const dir = await makeTempDir('vigil-kill-dir-');
    const tensors = drafterTensors();
    const shards = {
      'model-00001-of-00002.safetensors': tensors.filter((t) => t.name.startsWith('layers.0.self_attn')),
      'model-00002-of-00002.safetensors': tensors.filter((t) => !t.name.startsWith('layers.0.self_attn')),
    };
    const weightMap: Record<string, string> = {};
    for (const [name, list] of Object.entries(shards)) {
      await writeFile(join(dir, name), serializeSafetensors(list, { format: 'pt' }));
      for (const t of list) weightMap[t.name] = name;
    }
    await writeFile(join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: weightMap }));
    await writeFile(join(dir, 'config.json'), JSON.stringify(speculatorsConfig()));
    const names = ['config.json', 'model.safetensors.index.json', ...Object.keys(shards)];
    const before = await Promise.all(names.map((n) => hash(join(dir, n))));
    const run = await runVigil(['ckpt', 'rename', dir, '--preset', 'eagle3-speculators-to-sglang'], {
      ...process.env,
      VIGIL_CKPT_CRASH_AT: 'after-first-file',
    });
    expect(run.signal).toBe('SIGKILL');
    expect(await hash(join(dir, 'model-00001-of-00002.safetensors'))).not.toBe(before[2]);
    const inspect = await runVigil(['ckpt', 'inspect', dir]);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stderr).toContain('repaired an interrupted rewrite');
    expect(await Promise.all(names.map((n) => hash(join(dir, n))))).toEqual(before);
    expect((await readdir(dir)).sort()).toEqual([...names].sort());
    const again = await runVigil(['ckpt', 'rename', dir, '--preset', 'eagle3-speculators-to-sglang']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toMatchObject({
      architectures: ['LlamaForCausalLMEagle3'],
    });
  });
});

describe('kill -9 at random moments', () => {
  it('leaves the old or the new file in every iteration, in place and by copy', async () => {
    const dir = await makeTempDir('vigil-kill-random-');
    const original = bigDrafter();
    const expected = {
      inPlace: await expectedHashes(dir, original, MAP),
      copy: await expectedHashes(dir, original, COPY_MAP),
    };
    const file = join(dir, 'model.safetensors');
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const copy = i % 2 === 1;
      // A moment anywhere in a whole run of the same rewrite (timed when the expected hashes were taken).
      const { duration } = copy ? expected.copy : expected.inPlace;
      await writeFile(file, original);
      const running = startVigil(['ckpt', 'rename', file, ...(copy ? COPY_MAP : MAP), '--no-backup']);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * duration));
      running.child.kill('SIGKILL');
      await running.done;
      outcomes.push(await repairAndCheck(dir, file, copy ? expected.copy : expected.inPlace));
    }
    expect(outcomes).toHaveLength(6);
  });
});
