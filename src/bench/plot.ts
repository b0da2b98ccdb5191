// --plot FILE.svg: latency CDFs (TTFT, ITL) and output tokens/s over time, one line per server, drawn by
// vega-lite and rendered to SVG by vega's headless View (no browser). Loaded only when --plot is given.
import { writeFile, rename } from 'node:fs/promises';
import type { BenchResult } from './run.ts';
import { sortedCopy } from './stats.ts';

const CDF_POINTS = 400;

// Up to CDF_POINTS (value, fraction) points of an empirical CDF.
const cdf = (
  values: readonly number[],
  server: string,
): { server: string; ms: number; fraction: number }[] => {
  const sorted = sortedCopy(values);
  const n = sorted.length;
  if (n === 0) return [];
  const step = Math.max(1, Math.floor(n / CDF_POINTS));
  const points = [];
  for (let i = 0; i < n; i += step) points.push({ server, ms: sorted[i] ?? 0, fraction: (i + 1) / n });
  points.push({ server, ms: sorted[n - 1] ?? 0, fraction: 1 });
  return points;
};

// The vega-lite specification of the figure.
export const plotSpec = (result: BenchResult): Record<string, unknown> => {
  const names = result.sides.map((side, i) => `${i === 0 ? '' : 'compare: '}${side.url}`);
  const ttft = result.series.flatMap((s, i) => cdf(s.ttft, names[i] ?? ''));
  const itl = result.series.flatMap((s, i) => cdf(s.itl, names[i] ?? ''));
  const rate = result.series.flatMap((s, i) => s.rate.map((p) => ({ server: names[i] ?? '', ...p })));
  const color = {
    field: 'server',
    type: 'nominal',
    title: null,
    legend: { orient: 'bottom', labelLimit: 400 },
  };
  const cdfChart = (title: string, values: unknown[]): Record<string, unknown> => ({
    title,
    width: 320,
    height: 220,
    data: { values },
    mark: { type: 'line', interpolate: 'step-after' },
    encoding: {
      x: { field: 'ms', type: 'quantitative', title: 'milliseconds', scale: { zero: false } },
      y: { field: 'fraction', type: 'quantitative', title: 'fraction of samples', axis: { format: '%' } },
      color,
    },
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: 'white',
    padding: 12,
    config: { font: 'sans-serif', title: { fontSize: 13 }, axis: { labelFontSize: 11, titleFontSize: 11 } },
    vconcat: [
      { hconcat: [cdfChart('Time to first token (CDF)', ttft), cdfChart('Inter-token latency (CDF)', itl)] },
      {
        title: 'Output tokens/s over time',
        width: 700,
        height: 200,
        data: { values: rate },
        mark: { type: 'line', point: { size: 12 } },
        encoding: {
          x: { field: 't_s', type: 'quantitative', title: 'seconds since the run began' },
          y: { field: 'tokens_per_s', type: 'quantitative', title: 'output tokens/s' },
          color,
        },
      },
    ],
  };
};

// Renders the figure and writes it through a temporary file, so a failed render leaves no half-written SVG.
export const writeBenchPlot = async (path: string, result: BenchResult): Promise<void> => {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(
    plotSpec(result) as unknown as Parameters<typeof vegaLite.compile>[0],
  ).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  const temp = `${path}.${String(process.pid)}.tmp`;
  await writeFile(temp, svg);
  await rename(temp, path);
};
