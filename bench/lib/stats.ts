// Order statistics for benchmark samples.

// The median of the samples, or null when there are none.
export const median = (samples: readonly number[]): number | null => percentile(samples, 50);

// Nearest-rank percentile (p in 0..100), or null when there are no samples.
export const percentile = (samples: readonly number[], p: number): number | null => {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  if (p === 50 && sorted.length % 2 === 0) {
    const upper = sorted.length / 2;
    return ((sorted[upper - 1] ?? 0) + (sorted[upper] ?? 0)) / 2;
  }
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
};
