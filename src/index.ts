// The public API of llm-vigil: every export is named here.
export { EVENT_SCHEMA_VERSION, PHASE_IDS, DIAGNOSIS_CLASSES } from './events.ts';
export type {
  VigilEvent,
  VigilEventType,
  PreflightEvent,
  LaunchedEvent,
  ProbeEvent,
  PhaseEvent,
  HeartbeatEvent,
  LogEvent,
  NoticeEvent,
  ReadyEvent,
  FailedEvent,
  DiagnosisEvent,
  Diagnosis,
  DiagnosisClass,
  Evidence,
  Finding,
  FailReason,
  PhaseId,
  Rung,
  SchemaSource,
} from './events.ts';
export { EXIT } from './exit-codes.ts';
export type { ExitCode } from './exit-codes.ts';
export { VigilError, UsageError } from './errors.ts';
export type { VigilErrorCode } from './errors.ts';
export { parseDuration, formatDuration } from './config/duration.ts';
export { createRedactor } from './redact/redactor.ts';
export type { Redactor, RedactorSource } from './redact/redactor.ts';
export { findEntrypoint } from './engines/entrypoint.ts';
export type { Entrypoint } from './engines/entrypoint.ts';

// Launching and watching.
export { launch } from './watch/launch.ts';
export { watch } from './watch/watch.ts';
export type { LaunchOptions, WatchOptions, WatchCommonOptions } from './watch/options.ts';
export type { StartHandle, StartResult } from './watch/result.ts';
export { listenForInterrupts } from './watch/interrupts.ts';
export type { Interrupts } from './watch/interrupts.ts';
export { parseEnvFile, resolveEnv } from './watch/env.ts';
export { followLog } from './logs/follow.ts';
export type { FollowLogOptions, FollowedLine, LogNote } from './logs/follow.ts';
export type { RawLine } from './logs/types.ts';
export { probeOnce } from './probe/http.ts';
export type { ProbeResult } from './probe/http.ts';
export { readServerCommand } from './engines/command.ts';
export type { ServerCommand } from './engines/command.ts';
export { getEngine, ENGINES } from './engines/index.ts';
export type { EngineId, EngineSpec, PhaseRule } from './engines/types.ts';
export { listLaunchRecords, findLaunchRecord } from './state/records.ts';
export type { LaunchRecord } from './state/records.ts';
export { inspectLaunch, stopLaunch } from './state/launch-state.ts';
export { stateDir } from './state/dir.ts';

// Rendering events.
export { createRenderer, defaultOutputKind } from './report/index.ts';
export type { OutputKind, Renderer, RendererOptions } from './report/types.ts';

// Preflight: the engines' command lines.
export { runPreflight, checkCommand, defaultSchemaCacheDir } from './flags/preflight.ts';
export type { PreflightOptions, PreflightOutcome, PreflightReport } from './flags/preflight.ts';
export { formatPreflightPlain, describeSource } from './flags/format.ts';
export { parseArgv, optionLookup } from './flags/argparse/parse.ts';
export type {
  ArgparseResult,
  ArgparseIssue,
  ArgparseIssueKind,
  ParsedOption,
  ParseArgvOptions,
} from './flags/argparse/parse.ts';
export { parseHelpText } from './flags/schema/help-parser.ts';
export { loadBundledSchema, NEWEST_BUNDLED, BUNDLED_VERSIONS } from './flags/schema/bundled.ts';
export type { FlagSchema, FlagOption, Positional, EngineName } from './flags/schema/schema.ts';
export { suggestNames } from './flags/checks/suggest.ts';
export { CROSS_ENGINE_PAIRS } from './flags/checks/aliases.ts';
export { formatUsage, formatArgparseError, argparseWidth } from './flags/argparse/usage.ts';
export type { UsageOptions } from './flags/argparse/usage.ts';

// Phases, diagnosis and the ETA history.
export { createDiagnoser } from './diagnose/diagnoser.ts';
export type { LogDiagnoser } from './diagnose/diagnoser.ts';
export { createStartTracker } from './diagnose/tracker.ts';
export type { LogStartTracker, PhaseMark } from './diagnose/tracker.ts';
export type {
  StartTracker,
  TrackerUpdate,
  TrackLineResult,
  Diagnoser,
  DiagnoserOptions,
  DiagnoseEnd,
} from './diagnose/types.ts';
export { formatDiagnosisPlain } from './diagnose/format.ts';
export type { FormatDiagnosisOptions } from './diagnose/format.ts';
export { diagnoseLogFile } from './diagnose/file/diagnose-file.ts';
export type { DiagnoseLogFileOptions } from './diagnose/file/diagnose-file.ts';
export { normalizeLine } from './logs/normalize.ts';
export type { NormalizedLine, LinePiece } from './logs/normalize.ts';
export { profileOf, loadStarts, recordStart, estimateRemaining } from './state/history.ts';
export type { StartProfile, RecordedStart, PhaseDuration, Eta } from './state/history.ts';

// The simulated engine.
export { runSim } from './sim/run.ts';
export type { SimIo } from './sim/run.ts';
export { readSimSettings, SIM_DEFAULTS } from './sim/settings.ts';
export type { SimSettings } from './sim/settings.ts';
export { SIM_FAILURE_CLASSES, FAILURE_PHASES } from './sim/failures/catalog.ts';
export type { SimFailureClass } from './sim/failures/catalog.ts';

// safetensors checkpoints: reading, writing, renaming, checking EAGLE-3 drafters.
export { readHeader, parseHeader, MAX_HEADER_SIZE } from './ckpt/header.ts';
export type { SafetensorsHeader, TensorInfo } from './ckpt/header.ts';
export { fileSource, bytesSource } from './ckpt/source.ts';
export type { ByteSource } from './ckpt/source.ts';
export { encodeHeader, serializeSafetensors, writeSafetensors } from './ckpt/encode.ts';
export type { TensorData } from './ckpt/encode.ts';
export { DTYPE_BITS } from './ckpt/dtypes.ts';
export type { Dtype } from './ckpt/dtypes.ts';
export { CheckpointError } from './ckpt/errors.ts';
export type { CheckpointProblem } from './ckpt/errors.ts';
export { readCheckpoint, localReader } from './ckpt/folder.ts';
export type { Checkpoint, CheckpointReader } from './ckpt/folder.ts';
export { inspectCheckpoint } from './ckpt/inspect.ts';
export type { InspectReport } from './ckpt/inspect.ts';
export { parseRule } from './ckpt/name-map.ts';
export type { RenameRule, NameChange } from './ckpt/name-map.ts';
export { planRename, applyRename, renameCheckpoint, recoverTarget } from './ckpt/rename.ts';
export type { RenameOptions, RenamePlan, RenameResult } from './ckpt/rename.ts';
export { PRESET_NAMES } from './ckpt/presets.ts';
export type { PresetName } from './ckpt/presets.ts';
export { checkDraft } from './ckpt/check-draft.ts';
export type { DraftCheck } from './ckpt/check-draft.ts';
export { draftLoaderFor } from './engines/draft-loaders.ts';
export type { DraftLoader } from './ckpt/draft-loader.ts';

// After ready: the smoke test and the load generator (docs/bench.md).
export { runSmoke, smokeDiagnosis } from './smoke/index.ts';
export type { SmokeOptions, SmokeReport } from './smoke/index.ts';
export { runBench } from './bench/run.ts';
export type { BenchOptions, BenchResult, BenchProgress } from './bench/run.ts';
export type { SideSummary } from './bench/summary.ts';
export type { CompareFigures } from './bench/compare.ts';
export { createHttpTransport } from './bench/transport.ts';
export type { Transport, HttpRequest, ResponseSink } from './bench/transport.ts';
export type { SpecFigures, SpecReader } from './engines/types.ts';

// The CLI itself, for embedding and tests.
export { main } from './cli/main.ts';
