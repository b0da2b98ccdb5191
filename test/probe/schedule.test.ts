// The probe schedule on an injected clock: the caller passes every time, so no test waits for a real timer.
import { describe, expect, it } from 'vitest';
import { createProbeSchedule, FAST_PROBE } from '../../src/probe/schedule.ts';

// The due times of `count` probes from t=0, each answered `answerMs` after it was due; `hurryAt` is when the
// server first answers HTTP without being healthy.
const dueTimes = (
  schedule: ReturnType<typeof createProbeSchedule>,
  count: number,
  { answerMs = 5, hurryAt = Number.POSITIVE_INFINITY } = {},
): number[] => {
  const due = [0];
  for (let i = 1; i < count; i++) {
    const previous = due[i - 1]!;
    const answeredAt = previous + answerMs;
    if (answeredAt >= hurryAt) schedule.hurry(answeredAt);
    due.push(schedule.nextDue(previous, answeredAt));
  }
  return due;
};

describe('probe schedule', () => {
  it('probes every interval at a fixed rate while nothing answers', () => {
    const schedule = createProbeSchedule({ intervalMs: 1000, allowFast: true });
    expect(dueTimes(schedule, 4)).toEqual([0, 1000, 2000, 3000]);
  });

  it('goes at once after a probe that outlasted the interval, and keeps the rate from there', () => {
    const schedule = createProbeSchedule({ intervalMs: 1000, allowFast: true });
    expect(schedule.nextDue(0, 1700)).toBe(1700);
    expect(schedule.nextDue(1700, 1705)).toBe(2700);
  });

  it('probes every 25 ms once HTTP answers, for 10 s, then falls back to the interval', () => {
    const schedule = createProbeSchedule({ intervalMs: 1000, allowFast: true });
    const due = dueTimes(schedule, 3 + Math.ceil(FAST_PROBE.forMs / FAST_PROBE.intervalMs) + 3, {
      hurryAt: 2000,
    });
    expect(due.slice(0, 4)).toEqual([0, 1000, 2000, 2025]);
    const gaps = due.slice(1).map((t, i) => t - due[i]!);
    const fastGaps = gaps.filter((gap) => gap === FAST_PROBE.intervalMs).length;
    // From the first answer at 2005 ms to 12005 ms: 400 fast gaps, then the interval again.
    expect(fastGaps).toBe(FAST_PROBE.forMs / FAST_PROBE.intervalMs);
    expect(gaps.at(-1)).toBe(1000);
    expect(schedule.fast(2005 + FAST_PROBE.forMs - 1)).toBe(true);
    expect(schedule.fast(2005 + FAST_PROBE.forMs)).toBe(false);
  });

  it('opens the fast window once: a later answer does not renew it', () => {
    const schedule = createProbeSchedule({ intervalMs: 1000, allowFast: true });
    schedule.hurry(0);
    schedule.hurry(9000);
    expect(schedule.fast(9999)).toBe(true);
    expect(schedule.fast(10_000)).toBe(false);
  });

  it('never probes fast a health path that generates', () => {
    const schedule = createProbeSchedule({ intervalMs: 1000, allowFast: false });
    expect(dueTimes(schedule, 4, { hurryAt: 0 })).toEqual([0, 1000, 2000, 3000]);
  });

  it('never probes slower than --interval when the interval is shorter than the fast rate', () => {
    const schedule = createProbeSchedule({ intervalMs: 10, allowFast: true });
    schedule.hurry(0);
    expect(schedule.nextDue(0, 1)).toBe(10);
  });
});
