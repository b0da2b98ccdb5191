// Preflight: check a server command's flags against the engine's CLI before anything is launched.
// `vigil up` and `vigil check` call runPreflight; the report is the `preflight` event of docs/events.md minus type/t.
import { join } from 'node:path';
import type { Finding, PreflightEvent } from '../events.ts';
import { findEntrypoint, type Entrypoint } from '../engines/entrypoint.ts';
import { FLAG_ENGINES, getEngine } from '../engines/index.ts';
import { invalidOption, UsageError } from '../errors.ts';
import { localHost } from '../hosts/local.ts';
import type { HostRunner } from '../hosts/types.ts';
import { createRedactor } from '../redact/redactor.ts';
import { stateDir } from '../state/dir.ts';
import { parseArgv } from './argparse/parse.ts';
import { argparseFindings, usageFindings } from './argparse/findings.ts';
import { mergeConfigFile, placeFinding } from './checks/config-file.ts';
import { isBundled, loadBundledSchema, loadNameIndex, NEWEST_BUNDLED } from './schema/bundled.ts';
import { ENGINE_LABEL } from './schema/history.ts';
import type { EngineName } from './schema/schema.ts';
import { chooseSchema, type SchemaChoice } from './schema/source.ts';
import { draftFindings } from './checks/draft-findings.ts';
import { pathFindings, typeFindings } from './checks/value-checks.ts';

export interface PreflightOptions {
  /** The whole server command, as the user typed it after `--`. */
  command: readonly string[];
  /** `auto` reads the entrypoint from the command. */
  engine?: EngineName | 'auto';
  /** Check against this engine release's bundled table instead of the installed engine's --help. */
  engineVersion?: string;
  /** Validate against this `--help` text only. */
  helpFile?: string;
  /** Use no live `--help`: only --help-file or the bundled schemas. */
  offline?: boolean;
  /** Warnings block too. */
  strict?: boolean;
  /** Where the server will run (live --help and local-path checks happen there). Defaults to this machine. */
  host?: HostRunner;
  /** The server's working folder, for a relative `--config` path (defaults to vigil's own). */
  cwd?: string;
  /** Directory for the live-schema cache (defaults to the vigil state dir). */
  cacheDir?: string;
  signal?: AbortSignal;
  /** Called with progress notes such as "reading SGLang's --help (first run for this version takes a while)". */
  onNote?: (message: string) => void;
}

export type PreflightReport = Omit<PreflightEvent, 't' | 'type'>;

/** The outcome: the report plus whether it blocks the launch (errors, or warnings under --strict). */
export interface PreflightOutcome {
  report: PreflightReport;
  blocked: boolean;
}

// Every entrypoint the engines' folders name, for the message of a command vigil cannot check.
const entrypoints = (): string =>
  [
    ...FLAG_ENGINES.flatMap((spec) => [
      ...(spec.flags?.modules ?? []).map((module) => `python -m ${module}`),
      ...(spec.flags?.script === null || spec.flags?.script === undefined
        ? []
        : [[spec.flags.script.name, spec.flags.script.subcommand].filter((part) => part !== null).join(' ')]),
    ]),
    'vigil sim',
  ].join(', ');

// The live-schema cache lives with vigil's other state.
export const defaultSchemaCacheDir = (env: NodeJS.ProcessEnv = process.env): string =>
  join(stateDir(env), 'flag-schemas');

const validate = (options: PreflightOptions): void => {
  // Library callers may come from plain JavaScript: the type alone does not guarantee the value.
  // The engines whose flag tables vigil bundles.
  const engines: string[] = FLAG_ENGINES.map((spec) => spec.id);
  const engine: string = options.engine ?? 'auto';
  if (engine !== 'auto' && !engines.includes(engine)) {
    throw invalidOption(
      '--engine',
      `${engines.join(', ')} or auto`,
      engine,
      'vigil check knows the flags of these engines',
    );
  }
  if (
    options.engineVersion !== undefined &&
    !/^(?:\d+(?:\.\d+){1,3}(?:\.?post\d+|rc\d+)?|main)$/.test(options.engineVersion)
  )
    throw invalidOption(
      '--engine-version',
      'a release such as 0.5.18 or 0.8.5.post1, or main',
      options.engineVersion,
    );
  if (options.helpFile === '') throw invalidOption('--help-file', 'a file path', options.helpFile);
  if (options.command.length === 0) {
    throw new UsageError('no server command given', {
      hint: `put the server command after --, e.g. vigil check -- ${entrypoints().split(', ')[0] ?? 'SERVER'} ...`,
    });
  }
};

const byPosition = (a: Finding, b: Finding): number =>
  (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER);

// Runs every check on a command and says whether the launch should go ahead.
export const runPreflight = async (options: PreflightOptions): Promise<PreflightOutcome> => {
  validate(options);
  options.signal?.throwIfAborted();
  const entry = findEntrypoint(options.command);
  if (entry === null) {
    return {
      report: {
        status: 'skipped',
        source: null,
        findings: [],
        skipped_reason: `no recognised engine entrypoint (${entrypoints()}) in the command`,
      },
      blocked: false,
    };
  }
  const wanted = options.engine ?? 'auto';
  if (wanted !== 'auto' && wanted !== entry.engine) {
    throw new UsageError(
      `--engine ${wanted} does not match the command, which starts ${ENGINE_LABEL[entry.engine]}`,
      {
        option: '--engine',
        hint: `drop --engine or use --engine ${entry.engine}`,
      },
    );
  }
  const host = options.host ?? localHost;
  const choice = await chooseSchema({
    entry,
    ...(options.helpFile === undefined ? {} : { helpFile: options.helpFile }),
    ...(options.engineVersion === undefined ? {} : { engineVersion: options.engineVersion }),
    offline: options.offline === true,
    host,
    cacheDir: options.cacheDir ?? defaultSchemaCacheDir(),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onNote === undefined ? {} : { onNote: options.onNote }),
  });
  return checkCommand({
    command: options.command,
    entry,
    choice,
    host,
    strict: options.strict === true,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
};

export interface CheckCommandInput {
  command: readonly string[];
  entry: Entrypoint;
  choice: SchemaChoice;
  host: HostRunner;
  strict: boolean;
  /** The server's working folder, for a relative `--config` path. */
  cwd?: string;
}

// Checks one command against an already chosen schema (runPreflight's second half; warm and in process).
export const checkCommand = async (input: CheckCommandInput): Promise<PreflightOutcome> => {
  const { choice, entry, host } = input;
  const { schema } = choice;
  // Positions below are in the merged argv (the --config file's flags, then the typed ones); placeFinding moves
  // each finding back to the command or to the file's line.
  const merged = await mergeConfigFile(
    schema,
    input.command.slice(entry.argsStart),
    entry.argsStart,
    host,
    input.cwd,
  );
  const parsed = parseArgv(schema, merged.args);
  const context = {
    schema,
    authoritative: choice.authoritative,
    names: loadNameIndex,
    argsStart: 0,
  };
  const exactTypes =
    schema.source.kind === 'bundled' ||
    (choice.engineVersion !== null && isBundled(entry.engine, choice.engineVersion));
  const typed =
    schema.source.kind === 'bundled'
      ? schema
      : loadBundledSchema(
          entry.engine,
          exactTypes && choice.engineVersion !== null ? choice.engineVersion : NEWEST_BUNDLED[entry.engine],
        );
  const findings = [
    ...choice.findings,
    ...(merged.problem === null ? [] : [merged.problem]),
    ...[
      ...argparseFindings(parsed, context),
      ...usageFindings(parsed, schema),
      ...typeFindings(parsed, typed, exactTypes),
      ...(getEngine(entry.engine).flags?.extraChecks?.(parsed, {
        schema,
        engineVersion: choice.engineVersion,
      }) ?? []),
      ...(await pathFindings(parsed, schema, host)),
      ...(await draftFindings(parsed, entry.engine, choice.engineVersion, host, input.cwd)),
    ].map((finding) => placeFinding(finding, merged)),
  ].sort(byPosition);
  const redact = createRedactor({ argv: input.command });
  const report: PreflightReport = {
    status: findings.some((f) => f.severity === 'error')
      ? 'errors'
      : findings.some((f) => f.severity === 'warning')
        ? 'warnings'
        : 'ok',
    source: schema.source,
    findings: findings.map((f) => ({
      ...f,
      arg: f.arg === null ? null : redact(f.arg),
      message: redact(f.message),
      suggestions: f.suggestions.map((s) => redact(s)),
    })),
  };
  const blocked = report.status === 'errors' || (input.strict && report.status === 'warnings');
  return { report, blocked };
};
