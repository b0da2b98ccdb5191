// What launch() and watch() hand back, and how a loop outcome becomes the final `ready` or `failed` event.
import type { Diagnosis, FailReason, FailedEvent, ReadyEvent, VigilEvent } from '../events.ts';
import { exitCodeForReason } from '../exit-codes.ts';
import { formatDuration } from '../config/duration.ts';
import type { Diagnoser } from '../diagnose/types.ts';
import type { Redactor } from '../redact/redactor.ts';
import type { LoopOutcome } from './loop.ts';

// How a start ended: what `result` resolves to.
export interface StartResult {
  ok: boolean;
  /** vigil's exit code for this outcome (docs/cli.md, exit codes). */
  exitCode: number;
  elapsedMs: number;
  /** The launch id (launch() only). */
  id: string | null;
  /** The server's origin, when known. */
  url: string | null;
  /** The final event: always `ready` or `failed`. */
  event: ReadyEvent | FailedEvent;
  /** What went wrong besides the start itself (a record that could not be written), for the CLI to say. */
  warnings?: string[];
}

// What launch() and watch() return at once.
export interface StartHandle {
  /** Every event of the start, ending with `ready` or `failed`; read it with for-await (buffered until read). */
  events: AsyncIterable<VigilEvent>;
  /** Resolves when the start has ended (and a failed server has been stopped); rejects only on vigil's own errors. */
  result: Promise<StartResult>;
  /** The redactor of this start: renderers pass every string through it. */
  redact: Redactor;
}

// A failed event before the loop stamps its time.
export type FailedFields = Omit<FailedEvent, 't' | 'type'>;

// The failed event's fields for a loop outcome that is not ready. A remote host that rebooted took the server with
// it: a host failure (exit 6, `host-rebooted`, with `rebootedSummary`), not a crash.
export const failureFromOutcome = (
  outcome: LoopOutcome,
  diagnoser: Diagnoser,
  timeouts: { timeoutMs: number; stallTimeoutMs: number },
  rebootedSummary = 'the host rebooted: the server is gone',
): FailedFields => {
  const fields = crashFailure(outcome, diagnoser, timeouts);
  const end = outcome.end;
  return end.kind === 'exited' && end.end.hostRebooted === true
    ? hostRebootedFailure(fields, rebootedSummary)
    : fields;
};

const crashFailure = (
  outcome: LoopOutcome,
  diagnoser: Diagnoser,
  timeouts: { timeoutMs: number; stallTimeoutMs: number },
): FailedFields => {
  const end = outcome.end;
  const reason: FailReason =
    end.kind === 'exited'
      ? 'exited'
      : end.kind === 'timeout'
        ? 'timeout'
        : end.kind === 'stalled'
          ? 'stalled'
          : 'interrupted';
  const exitCode = end.kind === 'exited' ? end.end.code : null;
  const signal = end.kind === 'exited' ? end.end.signal : null;
  const diagnosis = diagnoser.finish({ exitCode, signal, reason, phase: outcome.phase });
  return {
    reason,
    exit_code: exitCodeForReason(reason),
    server_exit_code: exitCode,
    server_signal: signal,
    elapsed_ms: outcome.elapsedMs,
    diagnosis,
    phase: outcome.phase,
    log_tail: outcome.tail,
    message: failureMessage(outcome, timeouts),
  };
};

const failureMessage = (
  outcome: LoopOutcome,
  timeouts: { timeoutMs: number; stallTimeoutMs: number },
): string => {
  const end = outcome.end;
  switch (end.kind) {
    case 'exited':
      return `the server stopped before it was ready: ${end.end.detail}`;
    case 'timeout':
      return outcome.phase === null
        ? `not ready within --timeout ${formatDuration(timeouts.timeoutMs)} (reached ${outcome.rung})`
        : `not ready within --timeout ${formatDuration(timeouts.timeoutMs)}; still in phase ${outcome.phase}`;
    case 'stalled':
      return `no progress for ${formatDuration(end.idleMs)} (--stall-timeout ${formatDuration(timeouts.stallTimeoutMs)})`;
    case 'interrupted':
      return 'interrupted';
    case 'ready':
      return 'ready';
  }
};

// A failed start with no log to explain it (preflight, port in use, spawn error, interrupt before launch).
export const plainFailure = (reason: FailReason, diagnosis: Diagnosis, elapsedMs: number): FailedFields => ({
  reason,
  exit_code: exitCodeForReason(reason),
  server_exit_code: null,
  server_signal: null,
  elapsed_ms: elapsedMs,
  diagnosis,
  message: diagnosis.summary,
});

// A watch whose host rebooted: the server is gone with it, which is a host failure (exit 6), not a crash.
export const hostRebootedFailure = (fields: FailedFields, summary: string): FailedFields => ({
  ...fields,
  reason: 'unreachable',
  exit_code: exitCodeForReason('unreachable'),
  diagnosis: {
    class: 'host-rebooted',
    summary,
    evidence: [],
    advice: [
      'find out why the host rebooted (power, kernel panic, a GPU Xid error in the host log), then launch again',
    ],
  },
  message: summary,
});

// Redacts the free text of a failure (summaries can quote commands).
export const redactFailure = (fields: FailedFields, redact: (text: string) => string): FailedFields => ({
  ...fields,
  diagnosis: {
    ...fields.diagnosis,
    summary: redact(fields.diagnosis.summary),
    evidence: fields.diagnosis.evidence.map((e) => ({ line: e.line, text: redact(e.text) })),
    advice: fields.diagnosis.advice.map(redact),
  },
  ...(fields.message === undefined ? {} : { message: redact(fields.message) }),
  ...(fields.log_tail === undefined
    ? {}
    : { log_tail: fields.log_tail.map((e) => ({ line: e.line, text: redact(e.text) })) }),
});
