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
