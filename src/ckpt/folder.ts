// A checkpoint on disk: one .safetensors file, or a folder with shards, an optional
// model.safetensors.index.json and config.json. Reads go through a CheckpointReader, so the same code can
// later read a remote host's headers: only names, small JSON files and each shard's first 8 + N bytes.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CheckpointError } from './errors.ts';
import { readHeader, type SafetensorsHeader } from './header.ts';
import { fileSource, type ByteSource } from './source.ts';

export const INDEX_NAME = 'model.safetensors.index.json';
export const CONFIG_NAME = 'config.json';
/** config.json and the index are read whole; anything larger is not one. */
const SMALL_FILE_LIMIT = 64 * 1024 * 1024;

export interface CheckpointReader {
  kind(path: string): Promise<'file' | 'dir' | 'missing'>;
  list(dir: string): Promise<string[]>;
  /** A small text file, or null when it does not exist. */
  readText(path: string): Promise<string | null>;
  source(path: string): ByteSource;
}

export const localReader: CheckpointReader = {
  kind: async (path) => {
    try {
      return (await stat(path)).isDirectory() ? 'dir' : 'file';
    } catch {
      return 'missing';
    }
  },
  list: async (dir) => (await readdir(dir)).sort(),
  readText: async (path) => {
    try {
      if ((await stat(path)).size > SMALL_FILE_LIMIT)
        throw new Error(`larger than ${SMALL_FILE_LIMIT} bytes`);
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  },
  source: fileSource,
};

export interface Shard {
  path: string;
  header: SafetensorsHeader;
}

export interface JsonFile {
  path: string;
  text: string;
  json: Record<string, unknown>;
}

export interface Checkpoint {
  target: string;
  kind: 'file' | 'dir';
  dir: string;
  shards: Shard[];
  index: (JsonFile & { weightMap: Record<string, string> }) | null;
  config: JsonFile | null;
}

const readJson = async (
  reader: CheckpointReader,
  path: string,
  problem: 'InvalidIndex' | 'InvalidConfig',
): Promise<JsonFile | null> => {
  const text = await reader.readText(path);
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CheckpointError(
      problem,
      `not valid JSON (${reason})`,
      'fix or restore the file; vigil changed nothing',
      path,
    );
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new CheckpointError(
      problem,
      'expected a JSON object',
      'fix or restore the file; vigil changed nothing',
      path,
    );
  }
  return { path, text, json: json as Record<string, unknown> };
};

const weightMapOf = (index: JsonFile): Record<string, string> => {
  const map = index.json['weight_map'];
  const ok =
    map !== null &&
    typeof map === 'object' &&
    !Array.isArray(map) &&
    Object.values(map).every((v) => typeof v === 'string');
  if (!ok) {
    throw new CheckpointError(
      'InvalidIndex',
      'weight_map must map tensor names to shard file names',
      'fix or restore the index; vigil changed nothing',
      index.path,
    );
  }
  return map as Record<string, string>;
};

// Finds and reads every header of a checkpoint (file or folder); validates the index against the headers.
export const readCheckpoint = async (
  target: string,
  reader: CheckpointReader = localReader,
): Promise<Checkpoint> => {
  const kind = await reader.kind(target);
  if (kind === 'missing') {
    throw new CheckpointError(
      'IoError',
      'no such file or folder',
      'pass a .safetensors file or the folder that holds the checkpoint',
      target,
    );
  }
  const dir = kind === 'dir' ? target : dirname(target);
  const config = kind === 'dir' ? await readJson(reader, join(dir, CONFIG_NAME), 'InvalidConfig') : null;
  const rawIndex = kind === 'dir' ? await readJson(reader, join(dir, INDEX_NAME), 'InvalidIndex') : null;
  const index = rawIndex === null ? null : { ...rawIndex, weightMap: weightMapOf(rawIndex) };
  let files: string[];
  if (kind === 'file') files = [target];
  else if (index !== null)
    files = [...new Set(Object.values(index.weightMap))].sort().map((name) => join(dir, name));
  else
    files = (await reader.list(dir))
      .filter((name) => name.endsWith('.safetensors'))
      .map((name) => join(dir, name));
  if (kind === 'dir' && files.length === 0) {
    throw new CheckpointError(
      'IoError',
      'no .safetensors files here',
      'pass the folder that holds model.safetensors (or its shards)',
      target,
    );
  }
  const shards: Shard[] = [];
  for (const path of files) {
    if ((await reader.kind(path)) !== 'file') {
      throw new CheckpointError(
        'InvalidIndex',
        `the index names the shard ${basename(path)}, which does not exist`,
        'restore the missing shard or fix the index; vigil changed nothing',
        index?.path ?? path,
      );
    }
    shards.push({ path, header: await readHeader(reader.source(path)) });
  }
  if (index !== null) checkIndex(index, shards);
  return { target, kind, dir, shards, index, config };
};

// Every tensor listed once, in the shard the index names; every indexed tensor present.
const checkIndex = (
  index: JsonFile & { weightMap: Record<string, string> },
  shards: readonly Shard[],
): void => {
  const where = new Map<string, string>();
  for (const shard of shards)
    for (const t of shard.header.tensors) {
      const previous = where.get(t.name);
      if (previous !== undefined) {
        throw new CheckpointError(
          'DuplicateName',
          `tensor ${JSON.stringify(t.name)} is in both ${previous} and ${basename(shard.path)}`,
          'remove one copy; vigil changed nothing',
          index.path,
        );
      }
      where.set(t.name, basename(shard.path));
    }
  for (const [name, file] of Object.entries(index.weightMap)) {
    if (where.get(name) !== file) {
      throw new CheckpointError(
        'InvalidIndex',
        `weight_map puts ${JSON.stringify(name)} in ${file}, but ${where.has(name) ? `it is in ${where.get(name) ?? ''}` : 'no shard has it'}`,
        'fix or regenerate the index; vigil changed nothing',
        index.path,
      );
    }
  }
  const unlisted = [...where.keys()].filter((name) => !Object.hasOwn(index.weightMap, name));
  if (unlisted.length > 0) {
    throw new CheckpointError(
      'InvalidIndex',
      `weight_map does not list ${unlisted
        .slice(0, 3)
        .map((n) => JSON.stringify(n))
        .join(', ')}${unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : ''}`,
      'fix or regenerate the index; vigil changed nothing',
      index.path,
    );
  }
};

/** Every tensor name with the file that holds it. */
export const allTensors = (checkpoint: Checkpoint): { name: string; file: string }[] =>
  checkpoint.shards.flatMap((s) => s.header.tensors.map((t) => ({ name: t.name, file: s.path })));
