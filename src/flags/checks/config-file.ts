// `--config FILE.yaml`: SGLang and vLLM read a YAML mapping of flag names to values and merge it into the
// command line ahead of the typed flags (so typed flags win). Preflight does the same before checking, so a flag
// set in the file counts (a `model-path:` key satisfies the required --model-path) and a misspelt key is caught.
// Facts from SGLang's server_args_config_parser.py and vLLM's FlexibleArgumentParser: keys become `--key`;
// true on a flag adds it, false leaves it out (or gives `--no-key` where that exists); a list gives its items
// as separate values; a nested mapping is passed as JSON; anything else as its text.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import type * as Yaml from 'yaml';
import type { Finding } from '../../events.ts';
import type { HostRunner } from '../../hosts/types.ts';
import { optionLookup } from '../argparse/match.ts';
import type { FlagSchema } from '../schema/schema.ts';

// yaml is loaded on first use, synchronously (its Node build is CommonJS): most commands name no --config, and
// loading it would add ~30 ms to every cold `vigil check` and `vigil up`.
let yamlModule: typeof Yaml | null = null;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

// Where a token of the merged argv came from: the typed command (its index there) or a line of the file.
export type TokenOrigin = { kind: 'command'; index: number } | { kind: 'config'; line: number; key: string };

// The engine's argv with the file's flags merged in, and where each token came from.
export interface MergedArgs {
  args: string[];
  origins: TokenOrigin[];
  /** The file as given after --config, or null when the command names none. */
  path: string | null;
  /** A file that could not be used (missing, not YAML, not a mapping): the engine would stop on it too. */
  problem: Finding | null;
}

const fromCommand = (args: readonly string[], argsStart: number, skip: ReadonlySet<number>): MergedArgs => {
  const kept = args.map((arg, i) => ({ arg, i })).filter(({ i }) => !skip.has(i));
  return {
    args: kept.map(({ arg }) => arg),
    origins: kept.map(({ i }) => ({ kind: 'command', index: argsStart + i })),
    path: null,
    problem: null,
  };
};

// Finds `--config FILE` among the engine's arguments. The engines merge a file only for this bare token: their
// pre-parse looks for the exact `--config` argument, so `--config=FILE` reaches argparse as a plain value.
const findConfig = (args: readonly string[]): { path: string | null; at: number[] } | null => {
  const at = args.indexOf('--config');
  if (at === -1) return null;
  const next = args[at + 1];
  return next === undefined || next.startsWith('-')
    ? { path: null, at: [at] }
    : { path: next, at: [at, at + 1] };
};

// Engine config files are a few KB; a file far larger is not one (and parsing it could take minutes).
export const MAX_CONFIG_BYTES = 1024 * 1024;

const tooLarge = (bytes: number | null): Error =>
  new Error(
    `it is ${bytes === null ? 'over 1' : (bytes / MAX_CONFIG_BYTES).toFixed(1)} MiB, and engine config files are a few KB: vigil reads at most 1 MiB`,
  );

// Only a regular file of a sane size is read: a FIFO would block the read, a huge file the parse.
const checkFileInfo = (info: Stats): void => {
  if (!info.isFile()) throw new Error('it is not a regular file');
  if (info.size > MAX_CONFIG_BYTES) throw tooLarge(info.size);
};

// Reads the file where the server will run: this machine directly (a relative path from the server's working
// folder), elsewhere through the host (at most one byte past the limit, to tell that it is too large).
const readOn = async (host: HostRunner, path: string, cwd: string | undefined): Promise<string> => {
  if (host.name === 'local') {
    const full = resolve(cwd ?? '.', path);
    checkFileInfo(await stat(full));
    return readFile(full, 'utf8');
  }
  const result = await host.exec(['head', '-c', String(MAX_CONFIG_BYTES + 1), '--', path]);
  if (result.code !== 0) throw new Error(result.stderr.trim() || `head exited with ${String(result.code)}`);
  if (Buffer.byteLength(result.stdout) > MAX_CONFIG_BYTES) throw tooLarge(null);
  return result.stdout;
};

// Python's str() of a YAML scalar, as the engines pass it on.
const pythonText = (value: unknown): string => {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
};

// The argv tokens one key of the file stands for.
const tokensFor = (schema: FlagSchema, key: string, value: unknown): string[] => {
  const flag = `--${key}`;
  const option = optionLookup(schema).get(flag);
  if (typeof value === 'boolean') {
    if (option?.nargs === 0) return value ? [flag] : [];
    if (!value && optionLookup(schema).get(`--no-${key}`)?.nargs === 0) return [`--no-${key}`];
    if (option === undefined) return value ? [flag] : [];
    return [flag, value ? 'true' : 'false'];
  }
  if (Array.isArray(value)) return value.length === 0 ? [] : [flag, ...value.map(pythonText)];
  return [flag, pythonText(value)];
};

const problem = (index: number, arg: string, message: string): Finding => ({
  severity: 'error',
  code: 'config-file',
  index,
  arg,
  message,
  suggestions: [],
});

// `--config=FILE`: the engine parses the value but never reads the file, so none of its flags apply.
const ignoredConfig = (index: number, arg: string): Finding => {
  const path = arg.slice('--config='.length);
  return {
    severity: 'warning',
    code: 'config-ignored',
    index,
    arg,
    message: `${arg}: the engine merges a YAML file only for \`--config ${path}\` (a space, not =); written with = the file is ignored and none of its flags apply`,
    suggestions: ['--config', path],
  };
};

// How the file's text was obtained: its text, or why it could not be read.
type FileText = { text: string } | { error: string };

const isYamlName = (path: string): boolean => ['.yaml', '.yml'].includes(extname(path).toLowerCase());

// Merges the file a command names with --config into its arguments (file first, typed flags after), reading
// the file with read (which gets the path as written); pure apart from read.
const merge = (
  schema: FlagSchema,
  args: readonly string[],
  argsStart: number,
  read: (path: string) => FileText,
): MergedArgs => {
  const config = findConfig(args);
  if (config === null) {
    const attached = args.findIndex((arg) => arg.startsWith('--config='));
    const plain = fromCommand(args, argsStart, new Set());
    return attached === -1
      ? plain
      : { ...plain, problem: ignoredConfig(argsStart + attached, args[attached] ?? '') };
  }
  const typed = fromCommand(args, argsStart, new Set(config.at));
  // The finding points at the file name (or at --config when none follows).
  const at = argsStart + (config.at[config.at.length - 1] ?? 0);
  if (config.path === null) {
    return {
      ...typed,
      problem: problem(at, '--config', '--config needs a YAML file after it, e.g. --config serve.yaml'),
    };
  }
  const path = config.path;
  const fail = (message: string): MergedArgs => ({ ...typed, path, problem: problem(at, path, message) });
  if (!isYamlName(path)) {
    return fail(`--config ${path}: the engine reads only YAML files; give it a .yaml or .yml file`);
  }
  const file = read(path);
  if ('error' in file) {
    return fail(`--config ${path} cannot be read where the server runs (${file.error}); check the path`);
  }
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const document = parseDocument(file.text, { lineCounter: lines, uniqueKeys: false });
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    return fail(`--config ${path} is not valid YAML (${syntax.message.split('\n')[0] ?? ''}); fix the file`);
  }
  const root = document.contents;
  if (root === null) return { ...typed, path };
  if (!isMap(root)) {
    return fail(
      `--config ${path} must hold a mapping of flag names to values, one \`flag-name: value\` per line`,
    );
  }
  const merged: MergedArgs = { args: [], origins: [], path, problem: null };
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? pythonText(pair.key.value) : String(pair.key);
    const offset = isScalar(pair.key) ? pair.key.range[0] : 0;
    const line = lines.linePos(offset).line;
    const value: unknown =
      isScalar(pair.value) || pair.value === null ? pair.value?.value : pair.value.toJSON();
    for (const token of tokensFor(schema, key, value)) {
      merged.args.push(token);
      merged.origins.push({ kind: 'config', line, key });
    }
  }
  return { ...merged, args: [...merged.args, ...typed.args], origins: [...merged.origins, ...typed.origins] };
};

const failure = (error: unknown): FileText => ({
  error: error instanceof Error ? error.message : String(error),
});

// Merges a --config file read where the server runs (this machine directly, elsewhere through the host); cwd is
// the server's working folder.
export const mergeConfigFile = async (
  schema: FlagSchema,
  args: readonly string[],
  argsStart: number,
  host: HostRunner,
  cwd?: string,
): Promise<MergedArgs> => {
  const path = findConfig(args)?.path ?? null;
  let file: FileText = { error: 'not read' };
  if (path !== null && isYamlName(path)) {
    try {
      file = { text: await readOn(host, path, cwd) };
    } catch (error) {
      file = failure(error);
    }
  }
  return merge(schema, args, argsStart, () => file);
};

// The same on this machine, blocking, with a relative path taken from the server's working folder: for reading
// a command's port, host and key before launch, when nothing else runs yet.
export const mergeLocalConfigFileSync = (
  schema: FlagSchema,
  args: readonly string[],
  argsStart: number,
  cwd?: string,
): MergedArgs =>
  merge(schema, args, argsStart, (path) => {
    try {
      const full = resolve(cwd ?? '.', path);
      checkFileInfo(statSync(full));
      return { text: readFileSync(full, 'utf8') };
    } catch (error) {
      return failure(error);
    }
  });

// Moves a finding about the merged argv back to where its token came from: the command, or a line of the file.
export const placeFinding = (finding: Finding, merged: MergedArgs): Finding => {
  if (finding.index === null) return finding;
  const origin = merged.origins[finding.index];
  if (origin === undefined) return finding;
  if (origin.kind === 'command') return { ...finding, index: origin.index };
  return {
    ...finding,
    index: null,
    arg: origin.key,
    message: `${merged.path ?? ''}:${String(origin.line)}: ${finding.message}`,
  };
};
