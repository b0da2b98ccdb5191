import { describe, expect, it } from 'vitest';
import { createReadiness } from '../../src/watch/readiness.ts';
import type { ProbeResult } from '../../src/probe/http.ts';

const answer = (status: number): ProbeResult => ({ url: 'u', status, error: null, ms: 1, connected: true });
const refused: ProbeResult = { url: 'u', status: null, error: 'ECONNREFUSED', ms: 1, connected: false };
const reset: ProbeResult = { url: 'u', status: null, error: 'ECONNRESET', ms: 1, connected: true };

describe('createReadiness', () => {
  it('climbs the rungs: refused, connected, HTTP, healthy', () => {
    const r = createReadiness({ successThreshold: 2, expectStatus: new Set([200]), needReadyLine: false });
    expect(r.probed(refused).rung).toBe('spawned');
    expect(r.probed(reset).rung).toBe('port-open');
    expect(r.probed(answer(503)).rung).toBe('http-up');
    expect(r.probed(answer(200))).toMatchObject({ rung: 'healthy', ready: false });
    expect(r.probed(answer(200))).toMatchObject({ rung: 'ready', ready: true });
  });

  it('counts only healthy answers in a row', () => {
    const r = createReadiness({
      successThreshold: 2,
      expectStatus: new Set([200, 204]),
      needReadyLine: false,
    });
    expect(r.probed(answer(204)).ready).toBe(false);
    expect(r.probed(answer(500)).ready).toBe(false);
    expect(r.probed(answer(200)).ready).toBe(false);
    expect(r.probed(answer(204)).ready).toBe(true);
  });

  it('waits for the ready line when one is needed, and says it is waiting', () => {
    const r = createReadiness({ successThreshold: 1, expectStatus: new Set([200]), needReadyLine: true });
    expect(r.probed(answer(200))).toMatchObject({ ready: false, waitingForLine: true, rung: 'healthy' });
    r.readyLine();
    expect(r.lineSeen).toBe(true);
    expect(r.probed(answer(200))).toMatchObject({ ready: true, waitingForLine: false });
  });

  it('reports a change of health status, not a repeat', () => {
    const r = createReadiness({ successThreshold: 5, expectStatus: new Set([200]), needReadyLine: false });
    expect(r.probed(refused).changed).toBe(true);
    expect(r.probed(refused).changed).toBe(false);
    expect(r.probed(answer(503)).changed).toBe(true);
    expect(r.probed(answer(503)).changed).toBe(false);
    expect(r.probed(answer(200)).changed).toBe(true);
  });
});
