import { describe, expect, it } from 'vitest';
import { createSimClock, formatSglangTime, formatVllmTime } from '../../src/sim/clock.ts';

describe('createSimClock', () => {
  it('scales simulated seconds (a lower bound: a busy machine only makes it slower)', async () => {
    const clock = createSimClock(0.01, new AbortController().signal);
    const started = Date.now();
    await clock.sleep(10);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('ends a sleep when the run is aborted', async () => {
    const controller = new AbortController();
    const clock = createSimClock(1, controller.signal);
    const sleeping = clock.sleep(3600);
    controller.abort();
    await expect(sleeping).rejects.toThrow();
  });
});

describe('engine timestamps', () => {
  it("match SGLang's and vLLM's formats", () => {
    const date = new Date(2025, 8, 11, 10, 24, 3);
    expect(formatSglangTime(date)).toBe('2025-09-11 10:24:03');
    expect(formatVllmTime(date)).toBe('09-11 10:24:03');
  });
});
