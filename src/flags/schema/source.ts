// Picks the schema that decides, in the order the contract gives: --help-file alone; else, unless offline,
// the engine's live --help on the host; else the bundled table (of the installed release when bundled).
import { readUserFileSync } from '../../config/user-file.ts';
import type { Finding } from '../../events.ts';
import type { Entrypoint } from '../../engines/entrypoint.ts';
import { getEngine } from '../../engines/index.ts';
import { UsageError } from '../../errors.ts';
import type { HostRunner } from '../../hosts/types.ts';
import { BUNDLED_VERSIONS, isBundled, loadBundledSchema, NEWEST_BUNDLED } from './bundled.ts';
import { ENGINE_LABEL } from './history.ts';
import type { EngineName, FlagSchema } from './schema.ts';
import { compareVersions } from './versions.ts';

export interface SchemaChoice {
  schema: FlagSchema;
  /** The schema decides alone (unknown options are errors, not version warnings). */
  authoritative: boolean;
  /** The installed engine release, when vigil read it. */
  engineVersion: string | null;
  /** Notes about the choice (why live --help was not used), as info findings. */
  findings: Finding[];
}

export interface SchemaSourceOptions {
  entry: Entrypoint;
  helpFile?: string;
  /** Check against this engine release's bundled table (`--engine-version`). */
  engineVersion?: string;
  offline: boolean;
  host: HostRunner;
  cacheDir: string;
  signal?: AbortSignal;
  onNote?: (message: string) => void;
}

const note = (code: string, message: string): Finding => ({
  severity: 'info',
  code,
  index: null,
  arg: null,
  message,
  suggestions: [],
});

// The bundled release nearest below the installed one (or the newest when unknown); `main` (a development
// branch, newer than every tag) only for `main` itself.
export const nearestBundled = (engine: EngineName, version: string | null): string => {
  if (version === null) return NEWEST_BUNDLED[engine];
  if (version === 'main') return isBundled(engine, 'main') ? 'main' : NEWEST_BUNDLED[engine];
  const releases = BUNDLED_VERSIONS[engine].filter((v) => v !== 'main');
  const older = releases.filter((v) => compareVersions(v, version) <= 0);
  return older.at(-1) ?? releases[0] ?? NEWEST_BUNDLED[engine];
};

const fromHelpFile = async (path: string, engine: EngineName): Promise<SchemaChoice> => {
  let text: string;
  try {
    text = readUserFileSync(path);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new UsageError(`--help-file: cannot read ${path} (${reason})`, {
      option: '--help-file',
      hint: `save the engine's help first, e.g. ${(getEngine(engine).flags?.helpHint ?? 'SERVER --help > FILE').replace('FILE', path)}`,
    });
  }
  // Loaded on demand, like the live reader below: `vigil check --offline` starts faster without them.
  const { parseHelpText, versionFromHelp } = await import('./help-parser.ts');
  const version = versionFromHelp(text, engine);
  const schema = parseHelpText(text, {
    engine,
    version,
    source: { kind: 'help-file', engine, version, path },
  });
  if (schema.options.length === 0) {
    throw new UsageError(
      `--help-file: ${path} lists no options; expected the output of the engine's --help`,
      {
        option: '--help-file',
        hint: `save the full help output: ${getEngine(engine).flags?.helpHint ?? 'SERVER --help > FILE'}`,
      },
    );
  }
  return { schema, authoritative: true, engineVersion: version, findings: [] };
};

const bundledChoice = (
  engine: EngineName,
  engineVersion: string | null,
  findings: Finding[],
): SchemaChoice => {
  const version = nearestBundled(engine, engineVersion);
  const exact = engineVersion !== null && isBundled(engine, engineVersion);
  return { schema: loadBundledSchema(engine, version), authoritative: exact, engineVersion, findings };
};

// Resolves the schema for one command's entrypoint.
export const chooseSchema = async (options: SchemaSourceOptions): Promise<SchemaChoice> => {
  const { entry } = options;
  const engine = entry.engine;
  if (options.helpFile !== undefined) return fromHelpFile(options.helpFile, engine);
  // `--engine-version V`: that release's table (the nearest bundled one below it when V is not bundled).
  if (options.engineVersion !== undefined) return bundledChoice(engine, options.engineVersion, []);
  // The simulator validates against the newest bundled table, so that table is exact for it.
  if (entry.kind === 'sim') return bundledChoice(engine, NEWEST_BUNDLED[engine], []);
  if (options.offline) return bundledChoice(engine, null, []);
  const { loadLiveSchema } = await import('./live.ts');
  const live = await loadLiveSchema(entry, {
    host: options.host,
    cacheDir: options.cacheDir,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onNote === undefined ? {} : { onNote: options.onNote }),
  });
  if (live.ok)
    return {
      schema: live.schema,
      authoritative: true,
      engineVersion: live.install?.version ?? null,
      findings: [],
    };
  const version = live.install?.version ?? null;
  const label = ENGINE_LABEL[engine];
  const fallback = note(
    'live-schema-unavailable',
    `could not read ${label}'s own --help (${live.reason}); checked against the bundled ${label} v${nearestBundled(engine, version)} table instead`,
  );
  return bundledChoice(engine, version, [fallback]);
};
