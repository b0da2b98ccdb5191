// The public API of llm-vigil: what a script needs to launch, watch, check and diagnose a server, and nothing of
// the CLI's internals. Each block is one concern; a new concern adds its own block.

// Events: what launch() and watch() emit, and `--output jsonl` prints.
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
  ExitedEvent,
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

// Exit codes and errors.
export { EXIT } from './exit-codes.ts';
export type { ExitCode } from './exit-codes.ts';
export { VigilError, UsageError } from './errors.ts';

// The CLI's duration syntax (`1m30s`).
export { parseDuration, formatDuration } from './config/duration.ts';
export type { VigilErrorCode } from './errors.ts';

// Launching and watching a start.
export { launch } from './watch/launch.ts';
export { watch } from './watch/watch.ts';
export type { LaunchOptions, WatchOptions, WatchCommonOptions } from './watch/options.ts';
export type { StartHandle, StartResult } from './watch/result.ts';

// Rendering a start's events as the CLI does.
export { createRenderer } from './report/index.ts';
export type { OutputKind, Renderer, RendererOptions } from './report/types.ts';

// Checking a server command's flags before launch.
export { runPreflight } from './flags/preflight.ts';
export type { PreflightOptions, PreflightOutcome, PreflightReport } from './flags/preflight.ts';

// Diagnosing a failed start from its log.
export { diagnoseLogFile } from './diagnose/file/diagnose-file.ts';
export type { DiagnoseLogFileOptions } from './diagnose/file/diagnose-file.ts';

// Launched servers: list them, stop them.
export { listLaunchRecords, findLaunchRecord } from './state/records.ts';
export { stateDir } from './state/dir.ts';
export type { LaunchRecord } from './state/records.ts';
export { inspectLaunch, stopLaunch } from './state/launch-state.ts';

// The simulated engine: a server with real HTTP and the engine's log lines, and the failures it can inject.
export { runSim } from './sim/run.ts';
export type { SimIo } from './sim/run.ts';
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
