// Prometheus text exposition for the simulated engines' /metrics (each engine's metrics are in its folder,
// src/engines/<engine>/sim/metrics.ts).

/** One sample: name, type, help text and value. */
export type Metric = [name: string, type: 'gauge' | 'counter', help: string, value: number];

// Renders samples with their HELP and TYPE lines and the given labels.
export const render = (metrics: Metric[], labels: string): string =>
  metrics
    .map(
      ([name, type, help, value]) =>
        `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name}{${labels}} ${Number.isInteger(value) ? value.toFixed(1) : String(value)}\n`,
    )
    .join('');
