// Summary statistics of a run: percentiles by linear interpolation between closest ranks (numpy's default),
// so p50 of an even count is the mean of the two middle values.

export interface Percentiles {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

// The q-quantile (0..1) of values sorted ascending; null for none.
export const quantile = (sorted: ArrayLike<number>, q: number): number | null => {
  const n = sorted.length;
  if (n === 0) return null;
  const rank = Math.min(Math.max(q, 0), 1) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? 0;
  return a + (b - a) * (rank - lo);
};

// Sorts a copy numerically (Float64Array sorts by value, unlike Array#sort's default string order).
export const sortedCopy = (values: readonly number[]): Float64Array => Float64Array.from(values).sort();

export const percentiles = (values: readonly number[]): Percentiles => {
  const sorted = sortedCopy(values);
  return {
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted.length === 0 ? null : (sorted[sorted.length - 1] ?? null),
  };
};

export const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

// Rounds to 3 decimals for reports (microsecond resolution on millisecond figures).
export const round3 = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 1000) / 1000;
