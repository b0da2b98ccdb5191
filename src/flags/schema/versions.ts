// Release numbers of the engines (`0.4.10`, `0.6.6.post1`), compared as numbers, not text.

// Negative when a is older than b, 0 when equal, positive when newer; `.postN` counts as a later patch.
export const compareVersions = (a: string, b: string): number => {
  const parts = (v: string): number[] =>
    v.split(/[.+-]/).map((p) => Number.parseInt(p.replace(/^post/, ''), 10) || 0);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};
