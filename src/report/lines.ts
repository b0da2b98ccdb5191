// Turns events into the lines people read (tty and plain share them); the renderers decide which to print.
import { formatDuration } from '../config/duration.ts';
import type {
  Diagnosis,
  ExitedEvent,
  PreflightEvent,
  SmokeEvent,
  FailedEvent,
  HeartbeatEvent,
  LaunchedEvent,
  LogEvent,
  PhaseEvent,
  ProbeEvent,
  ReadyEvent,
} from '../events.ts';
import { evidenceLabel, formatDiagnosisPlain } from '../diagnose/format.ts';
import { formatPreflightPlain } from '../flags/format.ts';
import type { Paint } from './human-lines.ts';
import { formatFailedVerdict, formatReadyVerdict, preflightShown, verdictHasSummary } from './verdict.ts';
import { remainingEta, type WatchState } from './watch-state.ts';

// The two formatters borrowed from their owners: preflight findings (flags) and a diagnosis (diagnose), each
// behind one function so the renderers do not depend on their signatures.
export type PreflightReport = Omit<PreflightEvent, 'type' | 't'>;

// Formats a preflight result for people (multi-line, no trailing newline).
export const formatPreflight = (report: PreflightReport, command: readonly string[], paint: Paint): string =>
  formatPreflightPlain(report, [...command], { color: paint.enabled }).trimEnd();

// Formats a diagnosis for people (multi-line, no trailing newline).
export const formatDiagnosis = (diagnosis: Diagnosis, paint: Paint): string =>
  formatDiagnosisPlain(diagnosis, { paint });

// Evidence and advice only, for endings whose verdict line already carries the summary (preflight, smoke).
export const diagnosisDetails = (diagnosis: Diagnosis, paint: Paint): string[] => {
  const lines: string[] = [];
  if (diagnosis.evidence.length > 0) lines.push('evidence:');
  for (const evidence of diagnosis.evidence) {
    const label = evidenceLabel(evidence);
    lines.push(`  ${label === null ? '' : `${paint('dim', `${label}:`)} `}${evidence.text}`);
  }
  if (diagnosis.advice.length > 0) lines.push('what to do:');
  for (const advice of diagnosis.advice) lines.push(`  ${paint('cyan', '-')} ${advice}`);
  return lines;
};

// The elapsed-time stamp that starts a line: `[1m00s]`.
export const stamp = (t: number, paint: Paint): string => paint('dim', `[${formatDuration(t)}]`);

const formatProgress = (progress: { done: number; total: number } | null): string =>
  progress === null ? '' : ` ${progress.done}/${progress.total}`;

// `in 40s` / `overdue` for the ETA at time t, or null when none is known.
export const formatEta = (state: WatchState, t: number): string | null => {
  const left = remainingEta(state, t);
  if (left === null) return null;
  return left > 0 ? `ETA ${formatDuration(left)}` : 'past ETA';
};

// `launched pid 1234 …` and the `stop with:` line.
export const formatLaunched = (event: LaunchedEvent, paint: Paint): string[] => [
  `launched pid ${event.pid} (process group ${event.pgid}) on ${event.host}; log: ${event.log}`,
  `stop with: ${paint('bold', `vigil stop ${event.id}`)}`,
];

// A phase change, with the time spent in the previous phase; null for a progress-only update.
export const formatPhase = (event: PhaseEvent, changed: boolean, paint: Paint): string | null => {
  if (!changed) return null;
  const previous =
    event.previous === undefined || event.previous === null
      ? ''
      : paint('dim', ` (${event.previous.name} took ${formatDuration(event.previous.ms)})`);
  return `phase ${paint('bold', event.name)}${formatProgress(event.progress)}${previous}`;
};

const RUNG_WORDS: Record<string, string> = {
  spawned: 'spawned',
  'port-open': 'port open',
  'http-up': 'HTTP up',
  healthy: 'healthy',
  ready: 'ready',
  generating: 'generating',
};

// The probe result in a few characters: `200`, `503`, `ECONNREFUSED`.
export const describeProbe = (probe: { status: number | null; error: string | null }): string =>
  probe.status === null ? (probe.error ?? 'no answer') : String(probe.status);

// A change of rung or health status (probes are never printed one by one).
export const formatProbeChange = (event: ProbeEvent, rungChanged: boolean): string => {
  const answer = describeProbe(event);
  const head = rungChanged ? `${RUNG_WORDS[event.rung] ?? event.rung}: ` : 'health: ';
  return `${head}${event.url} → ${answer}`;
};

// Longest echoed log line: SGLang's server_args line runs to thousands of characters; the log file keeps it whole.
export const MAX_ECHOED_LINE = 240;

// Cuts a long log line for the terminal and says how much was left out.
export const clipLine = (text: string): string =>
  text.length <= MAX_ECHOED_LINE
    ? text
    : `${text.slice(0, MAX_ECHOED_LINE)}… (${String(text.length - MAX_ECHOED_LINE)} more chars)`;

// A log line worth showing, coloured by level.
export const formatLog = (event: LogEvent, paint: Paint): string => {
  const clipped = clipLine(event.text);
  const text =
    event.level === 'error'
      ? paint('red', clipped)
      : event.level === 'warning'
        ? paint('yellow', clipped)
        : clipped;
  return `${paint('dim', '>')} ${text}`;
};

// `still starting — phase weight-load 12/18 — ETA 40s — last: <line>`.
export const formatHeartbeat = (event: HeartbeatEvent, state: WatchState): string => {
  const parts = ['still starting'];
  if (event.phase !== null) {
    const progress = state.phase === event.phase ? formatProgress(state.progress) : '';
    parts.push(`phase ${event.phase}${progress}`);
  } else {
    parts.push(`rung ${event.rung}`);
  }
  const eta = formatEta(state, event.t);
  if (eta !== null) parts.push(eta);
  if (event.last_line !== null) parts.push(`last: ${clipLine(event.last_line)}`);
  return parts.join(' — ');
};

// The ready verdict, painted.
// `server exited (code 1) after 31s`: the first word of a crash, before the stop and the diagnosis.
export const formatExited = (event: ExitedEvent): string => {
  const how =
    event.server_signal !== null
      ? `signal ${event.server_signal}`
      : event.server_exit_code !== null
        ? `code ${event.server_exit_code}`
        : 'exit status unknown';
  return `server exited (${how}) after ${formatDuration(event.elapsed_ms)}`;
};

export const formatReady = (event: ReadyEvent, paint: Paint): string[] => {
  const lines = [paint('green', formatReadyVerdict(event))];
  if (event.id !== undefined) lines.push(`stop with: vigil stop ${event.id}`);
  return lines;
};

// `smoke test: 16 tokens, TTFT 41 ms, 0.3s` or `smoke test failed`.
export const formatSmoke = (event: SmokeEvent, paint: Paint): string =>
  event.ok
    ? `${paint('green', 'smoke test passed:')} ${String(event.tokens ?? 0)} tokens, TTFT ${String(Math.round(event.ttft_ms ?? 0))} ms, ${formatDuration(event.ms)} in all`
    : paint('red', `smoke test failed after ${formatDuration(event.ms)}`);

const formatTail = (event: FailedEvent, state: WatchState): string[] => {
  const tail = event.log_tail ?? [];
  if (tail.length === 0) return [];
  const where = state.launch === null ? 'the log' : state.launch.log;
  const width = String(tail[tail.length - 1]?.line ?? 0).length;
  return [
    `last ${tail.length} line${tail.length === 1 ? '' : 's'} of ${where}:`,
    ...tail.map((entry) => `  ${String(entry.line ?? '').padStart(width)} | ${entry.text}`),
  ];
};

// The failure block: the verdict, then the log tail, the diagnosis, and what was left running.
export const formatFailure = (
  event: FailedEvent,
  state: WatchState,
  paint: Paint,
  stallTimeoutMs: number | undefined,
): string[] => {
  const lines = [paint('red', formatFailedVerdict(event, state, stallTimeoutMs))];
  if (event.reason !== 'interrupted') {
    lines.push(...formatTail(event, state));
    if (!verdictHasSummary(event)) lines.push(formatDiagnosis(event.diagnosis, paint));
    else if (!preflightShown(event, state)) {
      lines.push(...diagnosisDetails(event.diagnosis, paint));
    }
  }
  for (const survivor of event.survivors ?? []) {
    lines.push(paint('yellow', `still running after stop: pid ${survivor.pid} ${survivor.command}`));
  }
  if (event.kept_running === true) {
    const stop = state.launch === null ? '' : ` — stop with: vigil stop ${state.launch.id}`;
    lines.push(`the server was left running${stop}`);
  }
  return lines;
};
