// `vigil ckpt rename` as a library call: plan (validate everything, change nothing), then apply. A folder
// rename writes a journal first, so a killed run is rolled back as a whole by the next one.
import { rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.ts';
import { crashAt } from './crash-point.ts';
import { CheckpointError } from './errors.ts';
import { allTensors, readCheckpoint, type Checkpoint, type CheckpointReader } from './folder.ts';
import { syncDir } from './fsync.ts';
import { changed, planNames, type NameChange, type RenameRule } from './name-map.ts';
import { rewriteDraftConfig } from '../engines/index.ts';
import { loadPreset, type PresetName } from './presets.ts';
import { recoverFolder, type Journal, type Recovery } from './recover.ts';
import {
  fitsInPlace,
  renamedTensors,
  renameInFile,
  type FileRenameResult,
  type RenameMode,
} from './rename-file.ts';
import { removeHeaderCopy } from './header-copy.ts';
import { lockFolder } from './lock.ts';
import { backupPath, JOURNAL_NAME } from './side-files.ts';

export interface RenameOptions {
  /** `--map` rules; used after the preset's own rules when both are given. */
  rules?: readonly RenameRule[];
  preset?: PresetName;
  /** Keep the originals (copy path) and the previous config.json (default true). */
  backup?: boolean;
  verifyData?: boolean;
  /** Rewrite by copy even where the header fits in place. */
  forceCopy?: boolean;
  /** Stream a copy through buffers instead of the kernel copy + block insert. */
  streamCopy?: boolean;
  signal?: AbortSignal;
}

export interface RenamePlan {
  checkpoint: Checkpoint;
  /** Every tensor whose name changes, with its file. */
  changes: NameChange[];
  files: { path: string; names: Map<string, string>; mode: RenameMode }[];
  index: { path: string; old: string; next: string } | null;
  config: { path: string; old: string; next: string } | null;
  /** What the preset could not carry over, or names the engine will ignore. */
  notes: string[];
}

export interface RenameResult {
  plan: RenamePlan;
  files: FileRenameResult[];
  backups: string[];
}

// Validates the checkpoint, the rules and the config rewrite; touches nothing.
export const planRename = async (
  target: string,
  options: RenameOptions,
  reader?: CheckpointReader,
): Promise<RenamePlan> => {
  const preset = options.preset === undefined ? null : loadPreset(options.preset);
  const rules = [...(preset?.rules ?? []), ...(options.rules ?? [])];
  if (rules.length === 0) {
    throw new CheckpointError(
      'InvalidMap',
      'no rename rules given',
      "pass --preset NAME or --map 'REGEX=>REPLACEMENT'",
    );
  }
  const checkpoint = await readCheckpoint(target, reader);
  if (checkpoint.kind === 'file') await refuseIndexedShard(checkpoint);
  const changes = changed(planNames(allTensors(checkpoint), rules));
  const notes: string[] = [];
  const files = checkpoint.shards.map((shard) => {
    const names = new Map(changes.filter((c) => c.file === shard.path).map((c) => [c.from, c.to]));
    const mode: RenameMode =
      names.size === 0
        ? 'unchanged'
        : options.forceCopy !== true && fitsInPlace(shard.header, renamedTensors(shard.header, names))
          ? 'in-place'
          : 'copy';
    return { path: shard.path, names, mode };
  });
  for (const pattern of preset?.ignoredByEngine ?? []) {
    for (const { name } of allTensors(checkpoint))
      if (pattern.test(name)) notes.push(`${name}: the engine ignores this tensor; kept as is`);
  }
  const index =
    checkpoint.index === null || changes.length === 0
      ? null
      : {
          path: checkpoint.index.path,
          old: checkpoint.index.text,
          next: renamedIndex(checkpoint.index.json, changes),
        };
  let config: RenamePlan['config'] = null;
  if (preset !== null && checkpoint.config !== null) {
    const rewrite = rewriteDraftConfig(checkpoint.config.json, preset.config);
    notes.push(...rewrite.notes);
    const next = `${JSON.stringify(rewrite.config, null, 2)}\n`;
    if (JSON.stringify(rewrite.config) !== JSON.stringify(checkpoint.config.json))
      config = { path: checkpoint.config.path, old: checkpoint.config.text, next };
  } else if (preset !== null && checkpoint.kind === 'file') {
    notes.push('config.json was not changed: pass the folder to rewrite it with the tensors');
  }
  return { checkpoint, changes, files, index, config, notes };
};

// A single shard named by an index cannot be renamed alone: the index would go stale.
const refuseIndexedShard = async (checkpoint: Checkpoint): Promise<void> => {
  const index = await readCheckpoint(checkpoint.dir)
    .then((c) => c.index)
    .catch(() => null);
  if (index !== null && Object.values(index.weightMap).includes(basename(checkpoint.target))) {
    throw new CheckpointError(
      'InvalidIndex',
      `${basename(checkpoint.target)} is a shard listed in ${basename(index.path)}`,
      `pass the folder (${checkpoint.dir}) so the index is renamed with it; nothing was changed`,
      checkpoint.target,
    );
  }
};

const renamedIndex = (json: Record<string, unknown>, changes: readonly NameChange[]): string => {
  const names = new Map(changes.map((c) => [c.from, c.to]));
  const map = json['weight_map'] as Record<string, string>;
  const weightMap = Object.fromEntries(
    Object.entries(map).map(([name, file]) => [names.get(name) ?? name, file]),
  );
  return `${JSON.stringify({ ...json, weight_map: weightMap }, null, 2)}\n`;
};

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

// Carries out a plan; a folder whose rename fails midway is rolled back at once from its journal.
export const applyRename = async (plan: RenamePlan, options: RenameOptions = {}): Promise<RenameResult> => {
  try {
    return await applyPlan(plan, options);
  } catch (error) {
    if (plan.checkpoint.kind === 'dir') await recoverFolder(plan.checkpoint.dir).catch(() => []);
    throw error;
  }
};

// A single file needs no journal (its header copy or temp file is enough).
const applyPlan = async (plan: RenamePlan, options: RenameOptions): Promise<RenameResult> => {
  const { checkpoint } = plan;
  const work = plan.files.filter((f) => f.mode !== 'unchanged');
  const folder = checkpoint.kind === 'dir';
  const stamp = new Date();
  const backups = new Map(
    work.filter((f) => f.mode === 'copy').map((f) => [f.path, backupPath(f.path, stamp)]),
  );
  const journalPath = join(checkpoint.dir, JOURNAL_NAME);
  if (folder) {
    const journal: Journal = {
      version: 1,
      files: work.map((f) => ({
        name: basename(f.path),
        mode: f.mode === 'copy' ? 'copy' : 'in-place',
        backup: f.mode === 'copy' ? basename(backups.get(f.path) ?? '') : null,
      })),
      config:
        plan.config === null
          ? null
          : { name: basename(plan.config.path), old: plan.config.old, mode: await modeOf(plan.config.path) },
      index:
        plan.index === null
          ? null
          : { name: basename(plan.index.path), old: plan.index.old, mode: await modeOf(plan.index.path) },
    };
    await writeFileAtomic(journalPath, JSON.stringify(journal), { mode: 0o600 });
    crashAt('after-journal');
  }
  const results: FileRenameResult[] = [];
  for (const file of work) {
    const shard = checkpoint.shards.find((s) => s.path === file.path);
    if (shard === undefined) continue;
    const backup = backups.get(file.path);
    results.push(
      await renameInFile(file.path, shard.header, file.names, {
        backup: folder || options.backup !== false,
        keepHeaderCopy: folder,
        ...(backup === undefined ? {} : { backupPath: backup }),
        ...(options.verifyData === true ? { verifyData: true } : {}),
        ...(options.forceCopy === true ? { forceCopy: true } : {}),
        ...(options.streamCopy === true ? { streamCopy: true } : {}),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
    );
    crashAt('after-first-file');
  }
  const kept: string[] = [];
  if (plan.config !== null && options.backup !== false) {
    const saved = backupPath(plan.config.path, stamp);
    await writeFile(saved, plan.config.old, { mode: 0o644 });
    kept.push(saved);
  }
  for (const json of [plan.config, plan.index]) {
    if (json !== null) await writeFileAtomic(json.path, json.next, { mode: await modeOf(json.path) });
  }
  if (folder) {
    await rm(journalPath, { force: true });
    await syncDir(checkpoint.dir);
    for (const file of work) await removeHeaderCopy(file.path);
  }
  for (const result of results) {
    if (result.backup === null) continue;
    if (options.backup === false) await rm(result.backup, { force: true });
    else kept.push(result.backup);
  }
  return { plan, files: results, backups: kept };
};

// Repairs an interrupted run, plans, and (unless dryRun) applies.
export const renameCheckpoint = async (
  target: string,
  options: RenameOptions & { dryRun?: boolean },
): Promise<{ recovered: Recovery[]; plan: RenamePlan; result: RenameResult | null }> => {
  const recovered = await recoverTarget(target);
  const plan = await planRename(target, options);
  if (options.dryRun === true || (plan.changes.length === 0 && plan.config === null))
    return { recovered, plan, result: null };
  const release = await lockFolder(plan.checkpoint.dir);
  try {
    return { recovered, plan, result: await applyRename(plan, options) };
  } finally {
    await release();
  }
};

// Recovery for a file or a folder target (a file's folder holds its side files and any journal).
export const recoverTarget = async (target: string): Promise<Recovery[]> => {
  let isDir: boolean;
  try {
    isDir = (await stat(target)).isDirectory();
  } catch {
    return [];
  }
  return recoverFolder(isDir ? target : join(target, '..'));
};
