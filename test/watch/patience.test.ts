import { afterEach, describe, expect, it } from 'vitest';
import { createPatience, type Patience } from '../../src/watch/patience.ts';

const made: Patience[] = [];
afterEach(() => {
  for (const p of made.splice(0)) p.stop();
});

const track = (p: Patience): Patience => {
  made.push(p);
  return p;
};

describe('createPatience', () => {
  it('fires the deadline counted from the start it is given', async () => {
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
    await new Promise((r) => setTimeout(r, 1000));
    expect(ended).toEqual(['timeout']);
  });

  it('only progress holds the stall off', async () => {
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
    await new Promise((r) => setTimeout(r, 1000));
    clearInterval(keepAlive);
    expect(ended).toEqual([]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(ended).toHaveLength(1);
    expect(ended[0]).toBeGreaterThanOrEqual(400);
  });

  it('beats every heartbeat period and stops for good', async () => {
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
    await new Promise((r) => setTimeout(r, 650));
    patience.stop();
    const counted = beats;
    expect(counted).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(beats).toBe(counted);
  });
});
