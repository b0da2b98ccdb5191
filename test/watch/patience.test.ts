// On fake timers and a fake performance.now(): the schedule is checked without waiting for it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPatience, type Patience } from '../../src/watch/patience.ts';

const made: Patience[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  for (const p of made.splice(0)) p.stop();
  vi.useRealTimers();
});

const track = (p: Patience): Patience => {
  made.push(p);
  return p;
};

describe('createPatience', () => {
  it('fires the deadline counted from the start it is given', () => {
    const ended: string[] = [];
    const startedAt = performance.now() - 10_000;
    track(
      createPatience({
        startedAt,
        timeoutMs: 10_050,
        stallTimeoutMs: null,
        heartbeatMs: 60_000,
        onTimeout: () => ended.push('timeout'),
        onStall: () => ended.push('stall'),
        onHeartbeat: () => ended.push('beat'),
      }),
    );
    vi.advanceTimersByTime(49);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(['timeout']);
  });

  it('only progress holds the stall off', () => {
    const ended: number[] = [];
    const patience = track(
      createPatience({
        startedAt: performance.now(),
        timeoutMs: 60_000,
        stallTimeoutMs: 400,
        heartbeatMs: 60_000,
        onTimeout: () => undefined,
        onStall: (idle) => ended.push(idle),
        onHeartbeat: () => undefined,
      }),
    );
    const keepAlive = setInterval(() => {
      patience.progressed();
    }, 40);
    vi.advanceTimersByTime(1000);
    clearInterval(keepAlive);
    expect(ended).toEqual([]);
    // The last progress was at 1000 ms: the stall fires 400 ms later, not earlier.
    vi.advanceTimersByTime(399);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual([400]);
  });

  it('beats every heartbeat period and stops for good', () => {
    let beats = 0;
    const patience = track(
      createPatience({
        startedAt: performance.now(),
        timeoutMs: 60_000,
        stallTimeoutMs: null,
        heartbeatMs: 100,
        onTimeout: () => undefined,
        onStall: () => undefined,
        onHeartbeat: () => beats++,
      }),
    );
    vi.advanceTimersByTime(650);
    patience.stop();
    expect(beats).toBe(6);
    vi.advanceTimersByTime(300);
    expect(beats).toBe(6);
  });
});
