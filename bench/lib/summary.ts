// Summaries of trials per (server, scenario, watcher) and the printed table.
import type { Scenario, ServerKind, WatcherId } from './commands.ts';
import { median, percentile } from './stats.ts';
import type { TrialResult } from './trial.ts';

export interface GroupSummary {
  server: ServerKind;
  scenario: Scenario;
  watcher: WatcherId;
  trials: number;
  detected: number;
  missed: number;
  wrong: number;
  errors: number;
  medianMs: number | null;
  p95Ms: number | null;
  /** This watcher's median over vigil's median for the same server and scenario. */
  ratioToVigil: number | null;
  /** vigil only: median time from the server event to vigil's verdict line (before vigil's own exit). */
  verdictLineMedianMs: number | null;
  /** Plain server, ready: median wait from healthy to the watcher's first 200 (its probe schedule's share). */
  probeWaitMedianMs: number | null;
  /** Plain server, ready: median of (latency − probe wait), the watcher's own share after the 200. */
  afterAnswerMedianMs: number | null;
  note?: string;
}

// Groups trials and computes medians over the detected ones only (misses are left out, as specified).
export const summarize = (results: readonly TrialResult[]): GroupSummary[] => {
  const keys = [...new Set(results.map((r) => `${r.server}|${r.scenario}|${r.watcher}`))];
  const groups = keys.map((key): GroupSummary => {
    const rows = results.filter((r) => `${r.server}|${r.scenario}|${r.watcher}` === key);
    const first = rows[0]!;
    const latencies = rows.flatMap((r) => (r.latencyMs === null ? [] : [r.latencyMs]));
    const note = rows.find((r) => r.note !== undefined)?.note;
    return {
      server: first.server,
      scenario: first.scenario,
      watcher: first.watcher,
      trials: rows.length,
      detected: latencies.length,
      missed: rows.filter((r) => r.outcome === 'missed').length,
      wrong: rows.filter((r) => r.outcome === 'wrong').length,
      errors: rows.filter((r) => r.outcome === 'error').length,
      medianMs: median(latencies),
      p95Ms: percentile(latencies, 95),
      ratioToVigil: null,
      verdictLineMedianMs: median(
        rows.flatMap((r) => (r.verdictLineMs === undefined ? [] : [r.verdictLineMs])),
      ),
      probeWaitMedianMs: median(rows.flatMap((r) => (r.probeWaitMs === undefined ? [] : [r.probeWaitMs]))),
      afterAnswerMedianMs: median(
        rows.flatMap((r) =>
          r.probeWaitMs === undefined || r.latencyMs === null ? [] : [r.latencyMs - r.probeWaitMs],
        ),
      ),
      ...(note === undefined ? {} : { note }),
    };
  });
  for (const group of groups) {
    const vigil = groups.find(
      (g) => g.watcher === 'vigil' && g.server === group.server && g.scenario === group.scenario,
    );
    if (
      vigil?.medianMs !== null &&
      vigil?.medianMs !== undefined &&
      group.medianMs !== null &&
      vigil.medianMs > 0
    ) {
      group.ratioToVigil = group.medianMs / vigil.medianMs;
    }
  }
  return groups;
};

const ms = (value: number | null, capMs: number, group: GroupSummary): string => {
  if (value !== null) return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
  if (group.missed === group.trials) return `>${capMs / 1000} s (missed)`;
  return '—';
};

const SCENARIO_NAMES: Record<Scenario, string> = {
  ready: 'ready → exit 0',
  crash: 'crash → exit ≠ 0',
  'crash-stubborn': 'crash, a child ignores SIGTERM → exit ≠ 0',
};

const SERVER_NAMES: Record<ServerKind, string> = { sim: 'simulator (sglang)', plain: 'plain /health server' };

// The table: one row per group; misses and wrong verdicts counted in their own columns.
export const formatTable = (groups: readonly GroupSummary[], capMs: number): string => {
  const header = ['server', 'event', 'watcher', 'n', 'seen', 'missed', 'median', 'p95', '× vigil'];
  const rows = groups.map((g) => [
    SERVER_NAMES[g.server],
    SCENARIO_NAMES[g.scenario],
    g.watcher,
    String(g.trials),
    String(g.detected),
    String(g.missed) + (g.wrong + g.errors > 0 ? ` (+${g.wrong + g.errors} wrong/error)` : ''),
    ms(g.medianMs, capMs, g),
    ms(g.p95Ms, capMs, g),
    g.ratioToVigil === null ? '—' : g.ratioToVigil.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
};
