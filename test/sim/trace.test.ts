import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSimTrace } from '../../src/sim/trace.ts';

let dir = '';
afterEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('openSimTrace', () => {
  it('appends each event once with a wall-clock time, and the exit with its code or signal', () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-trace-'));
    const path = join(dir, 'trace.jsonl');
    const trace = openSimTrace(path);
    const before = Date.now();
    trace.event('listening');
    trace.event('listening');
    trace.event('healthy');
    trace.exit({ signal: 'SIGTERM' });
    const events = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; t: number });
    expect(events.map((event) => event.event)).toEqual(['listening', 'healthy', 'exit']);
    expect(events.every((event) => event.t >= before && event.t <= Date.now())).toBe(true);
    expect(events[2]).toMatchObject({ signal: 'SIGTERM' });
  });

  it('refuses a path it cannot write, naming VIGIL_SIM_TRACE', () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-trace-'));
    expect(() => openSimTrace(join(dir, 'missing', 'trace.jsonl'))).toThrow(
      /VIGIL_SIM_TRACE: expected a file the simulator can append to/,
    );
  });

  it('does nothing without a path', () => {
    expect(() => {
      openSimTrace(null).event('healthy');
    }).not.toThrow();
  });
});
