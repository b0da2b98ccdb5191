// What vigil bench and vigil smoke print: the result table, the JSON object, and a progress bar on a terminal.
import type { Writable } from 'node:stream';
import { formatDuration } from '../config/duration.ts';
import type { BenchProgress, BenchResult } from '../bench/run.ts';
import type { SideSummary } from '../bench/summary.ts';
import type { Percentiles } from '../bench/stats.ts';
import type { SmokeReport } from '../smoke/smoke.ts';

const num = (value: number | null, digits = 1): string => (value === null ? '-' : value.toFixed(digits));

const latencyRow = (name: string, p: Percentiles): string[] => [
  name,
  num(p.p50),
  num(p.p90),
  num(p.p99),
  num(p.max),
];

const table = (rows: string[][]): string => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  '),
    )
    .join('\n');
};

const formatSpec = (side: SideSummary): string => {
  if (side.spec === null) return 'speculative decoding: none reported';
  const perRequest =
    side.spec.per_request_accept_length === undefined || side.spec.per_request_accept_length === null
      ? ''
      : `, per request ${side.spec.per_request_accept_length.toFixed(2)} (/generate)`;
  const positions =
    side.spec.per_position === undefined
      ? ''
      : `, by position ${side.spec.per_position.map((p) => p.toFixed(2)).join(' ')}`;
  return `acceptance length: ${side.spec.accept_length.toFixed(2)} (${side.spec.source})${perRequest}${positions}`;
};

const formatErrors = (side: SideSummary): string =>
  side.errors.total === 0
    ? 'errors: 0'
    : `errors: ${String(side.errors.total)} (${Object.entries(side.errors.by_kind)
        .map(([kind, count]) => `${kind} ${String(count)}`)
        .join(', ')})`;

const formatSide = (side: SideSummary): string =>
  [
    `${side.url} — model ${side.model}${side.engine === null ? '' : ` (${side.engine})`}`,
    `${String(side.requests_ok)}/${String(side.requests)} requests in ${formatDuration(side.duration_s * 1000)}: ` +
      `${num(side.requests_per_s, 2)} req/s, output ${num(side.output_tokens_per_s)} tok/s, input ${num(side.input_tokens_per_s)} tok/s`,
    table([
      ['ms', 'p50', 'p90', 'p99', 'max'],
      latencyRow('TTFT', side.ttft_ms),
      latencyRow('ITL', side.itl_ms),
      latencyRow('TPOT', side.tpot_ms),
      latencyRow('E2E', side.e2e_ms),
    ]),
    formatErrors(side),
    formatSpec(side),
  ].join('\n');

// The human report of a run.
export const formatBenchTable = (result: BenchResult): string => {
  const parts = result.sides.map(formatSide);
  const compare = result.compare;
  if (compare !== null) {
    parts.push(
      `speed-up of the first server over --compare (${String(compare.blocks)} block pairs, 95% bootstrap interval):\n` +
        `  output tokens/s  ${compare.speedup.toFixed(3)}x  [${compare.ci95[0].toFixed(3)}, ${compare.ci95[1].toFixed(3)}]\n` +
        `  TPOT             ${compare.tpot.speedup.toFixed(3)}x  [${compare.tpot.ci95[0].toFixed(3)}, ${compare.tpot.ci95[1].toFixed(3)}]`,
    );
  }
  return `${parts.join('\n\n')}\n`;
};

// The one JSON object of `--output json`: the first server's figures, and the comparison with the second.
export const benchJson = (result: BenchResult): Record<string, unknown> => {
  const [first, second] = result.sides;
  return {
    ...first,
    ...(result.compare === null || second === undefined
      ? {}
      : { compare: { ...result.compare, baseline: second } }),
  };
};

// A progress bar redrawn in place at most ten times a second; `finish` clears it.
export const createProgressBar = (
  stream: Writable & { isTTY?: boolean; columns?: number },
): { update(progress: BenchProgress): void; finish(): void } => {
  let last = 0;
  let drawn = false;
  return {
    update(progress) {
      const now = performance.now();
      if (now - last < 100 && progress.done !== progress.total) return;
      last = now;
      const rate = progress.elapsedMs > 0 ? (progress.done * 1000) / progress.elapsedMs : 0;
      const width = 24;
      const filled =
        progress.total === null ? 0 : Math.round((width * progress.done) / Math.max(progress.total, 1));
      const bar = progress.total === null ? '' : `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] `;
      const count =
        progress.total === null
          ? String(progress.done)
          : `${String(progress.done)}/${String(progress.total)}`;
      stream.write(
        `\r${bar}${count} requests, ${rate.toFixed(1)}/s, ${String(progress.errors)} errors\x1b[K`,
      );
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
};

// The human report of a smoke test (strings already redacted by the caller).
export const formatSmokeReport = (url: string, report: SmokeReport): string => {
  const health =
    report.health_generate === null
      ? ''
      : `\n${report.health_generate.path}: ${report.health_generate.status === null ? 'no answer' : `HTTP ${String(report.health_generate.status)}`} in ${num(report.health_generate.ms, 0)} ms`;
  if (report.ok) {
    return (
      `smoke test passed: ${url} — model ${report.model ?? '?'}\n` +
      `${String(report.tokens)} tokens, TTFT ${num(report.ttft_ms, 0)} ms, ${num(report.ms, 0)} ms in all${health}\n` +
      `answer: ${JSON.stringify(report.text)}\n`
    );
  }
  const evidence = (report.failure?.evidence ?? [])
    .map((e) => `  ${e.source === undefined ? '' : `${e.source}: `}${e.text}`)
    .join('\n');
  return `smoke test failed: ${url}\n${report.failure?.summary ?? ''}${health}${evidence === '' ? '' : `\nresponse:\n${evidence}`}\n`;
};
