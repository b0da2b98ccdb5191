// The engine's own parser on the host the server will run on: a `--help` command vigil builds from the
// entrypoint (never the user's command), limited to 120 s, cached by host, interpreter, engine and version.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entrypoint } from '../../engines/entrypoint.ts';
import { getEngine } from '../../engines/index.ts';
import type { HostRunner } from '../../hosts/types.ts';
import { writeFileAtomic } from '../../state/atomic-write.ts';
import { parseHelpText } from './help-parser.ts';
import { ENGINE_LABEL } from './history.ts';
import type { EngineName, FlagSchema } from './schema.ts';

export const LIVE_HELP_TIMEOUT_MS = 120_000;
const VERSION_TIMEOUT_MS = 30_000;
const CACHE_FORMAT = 1;

/** Where the engine runs: the Python that imports it and the release installed there. */
export interface EngineInstall {
  interpreter: string;
  version: string;
}

export interface LiveSchemaOptions {
  host: HostRunner;
  cacheDir: string;
  signal?: AbortSignal;
  onNote?: (message: string) => void;
}

export type LiveOutcome =
  | { ok: true; schema: FlagSchema; install: EngineInstall | null; cached: boolean }
  | { ok: false; reason: string; install: EngineInstall | null };

// The --help command for an entrypoint, or null when the bundled table is exact (`vigil sim`).
export const liveHelpCommand = (entry: Entrypoint): string[] | null => {
  const flags = getEngine(entry.engine).flags;
  // A clap launcher's help is not argparse's layout: its bundled table (from its source) is used instead.
  if (entry.kind === 'sim' || entry.kind === 'image' || entry.interpreter === null || flags === undefined)
    return null;
  if (flags.dialect === 'clap') return null;
  const help = [...flags.helpArgs];
  if (entry.kind === 'cli') {
    const subcommand = flags.script?.subcommand;
    return [
      entry.interpreter,
      ...(subcommand === null || subcommand === undefined ? [] : [subcommand]),
      ...help,
    ];
  }
  const module = entry.module ?? flags.modules[0] ?? '';
  return [entry.interpreter, '-m', module, ...help];
};

// Reads the installed release of the engine's Python distribution.
const VERSION_SCRIPT = (distribution: string): string =>
  `import sys, importlib.metadata as m; print(sys.executable); print(m.version(${JSON.stringify(distribution)}))`;

// The Python behind a console script: its shebang (`#!/opt/venv/bin/python3`).
const interpreterOf = async (entry: Entrypoint, options: LiveSchemaOptions): Promise<string | null> => {
  if (entry.kind === 'python-module') return entry.interpreter;
  const result = await options.host.exec(
    ['sh', '-c', 'head -n 1 "$(command -v "$1")"', 'sh', entry.interpreter ?? ''],
    {
      timeoutMs: VERSION_TIMEOUT_MS,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(result.stdout.trim());
  if (result.code !== 0 || shebang === null) return null;
  return shebang[1]?.endsWith('/env') === true ? (shebang[2] ?? null) : (shebang[1] ?? null);
};

// Reads the installed engine release through importlib.metadata; null when the engine is not importable.
export const readInstall = async (
  entry: Entrypoint,
  options: LiveSchemaOptions,
): Promise<EngineInstall | null> => {
  const distribution = getEngine(entry.engine).flags?.distribution ?? null;
  if (distribution === null) return null;
  const python = await interpreterOf(entry, options);
  if (python === null) return null;
  const result = await options.host.exec([python, '-c', VERSION_SCRIPT(distribution)], {
    timeoutMs: VERSION_TIMEOUT_MS,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const [executable, version] = result.stdout.trim().split('\n');
  if (result.code !== 0 || executable === undefined || version === undefined || version === '') return null;
  return { interpreter: executable.trim(), version: version.trim() };
};

const cachePath = (cacheDir: string, host: string, engine: EngineName, install: EngineInstall): string => {
  const key = JSON.stringify([host, install.interpreter, engine, install.version]);
  return join(
    cacheDir,
    `${engine}-${install.version}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`,
  );
};

const readCache = async (path: string): Promise<FlagSchema | null> => {
  try {
    const data = JSON.parse(await readFile(path, 'utf8')) as { format?: number; schema?: FlagSchema };
    const schema = data.schema;
    if (data.format !== CACHE_FORMAT || schema === undefined || !Array.isArray(schema.options)) return null;
    return schema.options.length > 0 ? schema : null;
  } catch {
    return null;
  }
};

const runHelp = async (
  command: string[],
  options: LiveSchemaOptions,
): Promise<{ text: string; used: string[] } | { reason: string }> => {
  const exec = (argv: string[]) =>
    options.host.exec(argv, {
      timeoutMs: LIVE_HELP_TIMEOUT_MS,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  let used = command;
  let result = await exec(used);
  // vLLM releases before `--help=<group>` existed reject `--help=all`; their plain --help lists every flag.
  if (result.code === 2 && /ignored explicit argument 'all'/.test(result.stderr)) {
    used = command.map((arg) => (arg === '--help=all' ? '--help' : arg));
    result = await exec(used);
  }
  if (result.timedOut)
    return { reason: `${command.join(' ')} took longer than ${String(LIVE_HELP_TIMEOUT_MS / 1000)} s` };
  if (result.code !== 0) {
    const last = result.stderr.trim().split('\n').at(-1) ?? '';
    return {
      reason: `${command.join(' ')} exited with ${String(result.code ?? result.signal)}${last === '' ? '' : `: ${last}`}`,
    };
  }
  return { text: result.stdout, used };
};

// Runs a step; a command that cannot start becomes a reason, an abort stays an abort.
const attempt = async <T>(
  step: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | { reason: string }> => {
  try {
    const value = await step();
    signal?.throwIfAborted();
    return value;
  } catch (error) {
    signal?.throwIfAborted();
    return { reason: error instanceof Error ? error.message : String(error) };
  }
};

// Reads the engine's own --help on the host (or its cached schema) and parses it.
export const loadLiveSchema = async (entry: Entrypoint, options: LiveSchemaOptions): Promise<LiveOutcome> => {
  const command = liveHelpCommand(entry);
  if (command === null) return { ok: false, reason: 'no --help command for this entrypoint', install: null };
  const label = ENGINE_LABEL[entry.engine];
  const install = await attempt(() => readInstall(entry, options), options.signal);
  if (install !== null && 'reason' in install) return { ok: false, reason: install.reason, install: null };
  const path =
    install === null ? null : cachePath(options.cacheDir, options.host.name, entry.engine, install);
  if (path !== null) {
    const cached = await readCache(path);
    if (cached !== null) return { ok: true, schema: cached, install, cached: true };
  }
  const where = options.host.name === 'local' ? '' : ` on ${options.host.name}`;
  options.onNote?.(
    `reading ${label}'s --help${where} (the first run for ${install === null ? 'this install' : `v${install.version}`} takes a while: it imports the engine)`,
  );
  const help = await attempt(() => runHelp(command, options), options.signal);
  if ('reason' in help) return { ok: false, reason: help.reason, install };
  const schema = parseHelpText(help.text, {
    engine: entry.engine,
    version: install?.version ?? null,
    source: {
      kind: 'live',
      engine: entry.engine,
      version: install?.version ?? null,
      path: help.used.join(' '),
    },
  });
  if (schema.options.length === 0)
    return { ok: false, reason: `${command.join(' ')} listed no options`, install };
  if (path !== null) {
    await writeFileAtomic(
      path,
      `${JSON.stringify({ format: CACHE_FORMAT, key: { host: options.host.name, ...install, engine: entry.engine }, schema })}\n`,
      {
        mode: 0o600,
      },
    );
  }
  return { ok: true, schema, install, cached: false };
};
