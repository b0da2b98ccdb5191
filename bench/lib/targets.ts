// vigil's targets, checked against what the benchmark measured, and the text lines around the table.
import type { Scenario, ServerKind, WatcherId } from './commands.ts';
import { EARLY_SAMPLE_MS, type ResourceResult } from './resource-watch.ts';
import type { GroupSummary } from './summary.ts';

export interface TargetCheck {
  target: string;
  measured: string;
  /** null when the figure was not measured. */
  met: boolean | null;
}

const check = (
  target: string,
  value: number | null | undefined,
  limit: number,
  unit: string,
): TargetCheck => {
  if (value === null || value === undefined) return { target, measured: 'not measured', met: null };
  const shown = unit === 'ms' ? String(Math.round(value)) : value.toFixed(2);
  return { target, measured: `${shown} ${unit}`, met: value <= limit };
};

// Every target, with the measured figure (medians of detected trials; resources from the long watch).
export const checkTargets = (
  groups: readonly GroupSummary[],
  resources: ResourceResult | null,
): TargetCheck[] => {
  const group = (server: ServerKind, scenario: Scenario, watcher: WatcherId = 'vigil') =>
    groups.find((g) => g.watcher === watcher && g.server === server && g.scenario === scenario);
  const vigil = (server: ServerKind, scenario: Scenario): number | null | undefined =>
    group(server, scenario)?.medianMs;
  // A crash counts from the server's exit to vigil's first word on it (`exited`, else `failed`).
  const firstWord = (server: ServerKind, scenario: Scenario): number | null | undefined =>
    group(server, scenario)?.verdictLineMedianMs;
  const waitOn = group('plain', 'ready', 'wait-on')?.medianMs;
  return [
    check('ready with a ready line (simulator): median ≤ 25 ms', vigil('sim', 'ready'), 25, 'ms'),
    check(
      `ready without a ready line (plain server, no log line; wait-on in the same run: ${
        waitOn === null || waitOn === undefined ? 'not measured' : `${Math.round(waitOn)} ms`
      }): median ≤ 60 ms`,
      vigil('plain', 'ready'),
      60,
      'ms',
    ),
    check('crash (simulator), first event: median ≤ 50 ms', firstWord('sim', 'crash'), 50, 'ms'),
    check('crash (plain server), first event: median ≤ 50 ms', firstWord('plain', 'crash'), 50, 'ms'),
    check(
      'crash with a child that ignores SIGTERM (plain server), first event: median ≤ 50 ms',
      firstWord('plain', 'crash-stubborn'),
      50,
      'ms',
    ),
    check('CPU < 1 s per minute of watching (startup included)', resources?.cpuSecondsPerMinute, 1, 's/min'),
    check(
      'CPU < 1 s per minute of watching (after startup)',
      resources?.steadyCpuSecondsPerMinute,
      1,
      's/min',
    ),
    check('peak RSS < 100 MB', resources?.usage?.peakRssMb, 100, 'MB'),
  ];
};

// One line on vigil's own cost.
export const formatResources = (resources: ResourceResult): string => {
  const seconds = Math.round(resources.watchedMs / 1000);
  const usage = resources.usage;
  if (usage === null)
    return `vigil over a ${seconds} s watch: not measured (${resources.note ?? 'no usage'})`;
  const what = resources.server === 'sim' ? 'the simulator at real speed' : 'the plain server';
  return (
    `vigil over a ${seconds} s watch of ${what}: ${usage.cpuSeconds.toFixed(2)} s CPU in all ` +
    `(${(resources.cpuSecondsPerMinute ?? 0).toFixed(2)} s/min with startup, ` +
    `${(resources.steadyCpuSecondsPerMinute ?? 0).toFixed(2)} s/min after the first ${EARLY_SAMPLE_MS / 1000} s); ` +
    `peak RSS ${usage.peakRssMb.toFixed(1)} MB, RSS at the end ${usage.rssMb.toFixed(1)} MB`
  );
};

// How much of vigil's latency is the verdict itself and how much its own shutdown.
export const formatVerdictTimes = (groups: readonly GroupSummary[]): string[] => {
  const timed = groups.filter((g) => g.verdictLineMedianMs !== null);
  if (timed.length === 0) return [];
  return [
    'vigil, server event → its ready/failed line reaching the pipe (median; the rest until exit is shutdown):',
    ...timed.map((g) => `  ${g.server} ${g.scenario}: ${Math.round(g.verdictLineMedianMs ?? 0)} ms`),
  ];
};

// Without a ready line, a watcher's latency is the wait for its next probe (set by the probe schedule and where the
// server's ready instant falls in it) plus its own part after the first 200 answer.
export const formatProbeWaits = (groups: readonly GroupSummary[]): string[] => {
  const split = groups.filter((g) => g.probeWaitMedianMs !== null && g.afterAnswerMedianMs !== null);
  if (split.length === 0) return [];
  return [
    'plain server ready, split (medians): waiting for the next probe + the watcher after the first 200 answer:',
    ...split.map(
      (g) =>
        `  ${g.watcher}: ${Math.round(g.probeWaitMedianMs ?? 0)} ms + ${Math.round(g.afterAnswerMedianMs ?? 0)} ms`,
    ),
  ];
};

// `met` / `NOT met` / `?` per target.
export const formatTargets = (targets: readonly TargetCheck[]): string[] => [
  'targets for vigil:',
  ...targets.map(
    (t) =>
      `  ${t.met === null ? '?      ' : t.met ? 'met    ' : 'NOT met'}  ${t.target} — measured ${t.measured}`,
  ),
];
