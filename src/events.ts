// The typed events that core code emits and renderers print; `--output jsonl` writes them one per line.

/** Version of the event schema; bumped on every change (2: the `exited` event). */
export const EVENT_SCHEMA_VERSION = 2;

export type Rung = 'spawned' | 'port-open' | 'http-up' | 'healthy' | 'ready' | 'generating';

export const PHASE_IDS = [
  'process-up',
  'dist-init',
  'weight-load',
  'kv-cache',
  'graph-capture',
  'draft-graph-capture',
  'compile',
  'http-up',
  'warmup',
  'ready',
] as const;
export type PhaseId = (typeof PHASE_IDS)[number];

export const DIAGNOSIS_CLASSES = [
  'ready',
  'unknown-flag',
  'invalid-value',
  'cuda-oom',
  'nccl',
  'port-in-use',
  'model-not-found-or-auth',
  'weight-mismatch',
  'dependency',
  'hang',
  'killed',
  'warmup-failed',
  'graph-capture-failed',
  'peer-rank-failed',
  'disk-full',
  'host-rebooted',
  'unknown',
] as const;
export type DiagnosisClass = (typeof DIAGNOSIS_CLASSES)[number];

export type FailReason =
  'preflight' | 'exited' | 'timeout' | 'stalled' | 'unreachable' | 'smoke' | 'interrupted' | 'usage';

export interface Evidence {
  /** 1-based line number in the log file (file line numbers, not offsets into the watched part). */
  line: number;
  /** The raw file line with only ANSI codes removed, redacted. */
  text: string;
}

export interface Diagnosis {
  class: DiagnosisClass;
  summary: string;
  evidence: Evidence[];
  advice: string[];
}

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  /** Stable code, e.g. `unknown-option`, `invalid-choice`, `speculative-partial`. */
  code: string;
  /** Position in the server's argv (the whole command), or null when the finding concerns no single argument. */
  index: number | null;
  arg: string | null;
  message: string;
  /** Best guess first. */
  suggestions: string[];
}

export interface SchemaSource {
  kind: 'help-file' | 'live' | 'bundled';
  engine: string;
  version: string | null;
  path: string | null;
}

interface EventBase {
  /** Milliseconds since vigil started. */
  t: number;
}

export interface PreflightEvent extends EventBase {
  type: 'preflight';
  status: 'ok' | 'warnings' | 'errors' | 'skipped';
  source: SchemaSource | null;
  findings: Finding[];
  /** Why preflight was skipped, when it was. */
  skipped_reason?: string;
}

export interface LaunchedEvent extends EventBase {
  type: 'launched';
  id: string;
  pid: number;
  pgid: number;
  host: string;
  log: string;
  log_offset: number;
  /** The server command, redacted. */
  command: string[];
  health_url: string | null;
}

export interface ProbeEvent extends EventBase {
  type: 'probe';
  url: string;
  status: number | null;
  error: string | null;
  ms: number;
  rung: Rung;
}

export interface PhaseEvent extends EventBase {
  type: 'phase';
  name: PhaseId;
  progress: { done: number; total: number } | null;
  /** Time spent in the previous phase, when there was one. */
  previous?: { name: PhaseId; ms: number } | null;
  /** Remaining time estimated from earlier starts of the same profile; absent without history. */
  eta?: { ms: number; basis: string } | null;
}

export interface HeartbeatEvent extends EventBase {
  type: 'heartbeat';
  elapsed_ms: number;
  rung: Rung;
  phase: PhaseId | null;
  last_line: string | null;
  /** Remaining time estimated from earlier starts of the same profile; absent without history. */
  eta?: { ms: number; basis: string } | null;
}

/** A log line the watcher considers worth showing (phase lines, warnings, errors), redacted. */
export interface LogEvent extends EventBase {
  type: 'log';
  line: number;
  text: string;
  level: 'info' | 'warning' | 'error';
}

/** Something the user should know that is not a failure, e.g. "no log followed: no stall detection". */
export interface NoticeEvent extends EventBase {
  type: 'notice';
  code: string;
  message: string;
}

export interface ReadyEvent extends EventBase {
  type: 'ready';
  elapsed_ms: number;
  /** The server's origin, e.g. http://127.0.0.1:30000 */
  url: string;
  health_url: string | null;
  id?: string;
  /** `generating` when a smoke test proved the server generates (`vigil up --smoke`). */
  rung?: Rung;
}

/** A smoke test's outcome (`vigil up --smoke`), just before the final `ready` or `failed`. */
export interface SmokeEvent extends EventBase {
  type: 'smoke';
  ok: boolean;
  ms: number;
  ttft_ms: number | null;
  /** Completion tokens, from the server's usage. */
  tokens: number | null;
}

/** The leader died: sent the instant vigil sees it, before the stop and its grace period; `failed` follows. */
export interface ExitedEvent extends EventBase {
  type: 'exited';
  server_exit_code: number | null;
  server_signal: string | null;
  elapsed_ms: number;
}

export interface FailedEvent extends EventBase {
  type: 'failed';
  reason: FailReason;
  /** vigil's own exit code. */
  exit_code: number;
  server_exit_code: number | null;
  server_signal: string | null;
  elapsed_ms: number;
  diagnosis: Diagnosis;
  /** The phase the server was in when the start ended. */
  phase?: PhaseId | null;
  /** The last lines of the log (redacted), for the renderer's tail. */
  log_tail?: Evidence[];
  /** Processes still alive after stopping, if any survived. */
  survivors?: { pid: number; command: string }[];
  /** Whether the server was left running (`--keep-on-failure`, `--detach-on-interrupt`). */
  kept_running?: boolean;
  message?: string;
}

/** A remote host's link dropped: vigil keeps trying inside the deadline. */
export interface UnreachableEvent extends EventBase {
  type: 'unreachable';
  host: string;
  /** When the link was lost, in ms since vigil started. */
  since_ms: number;
}

/** A remote host answers again; the watch resumed where it left off. */
export interface ReconnectedEvent extends EventBase {
  type: 'reconnected';
  host: string;
  /** How long the host was unreachable. */
  after_ms: number;
}

export interface DiagnosisEvent extends EventBase, Diagnosis {
  type: 'diagnosis';
}

export type VigilEvent =
  | PreflightEvent
  | LaunchedEvent
  | ProbeEvent
  | PhaseEvent
  | HeartbeatEvent
  | LogEvent
  | NoticeEvent
  | ReadyEvent
  | ExitedEvent
  | FailedEvent
  | UnreachableEvent
  | ReconnectedEvent
  | DiagnosisEvent
  | SmokeEvent;

export type VigilEventType = VigilEvent['type'];
