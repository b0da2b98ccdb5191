import { describe, expect, it } from 'vitest';
import { formatFailedVerdict, formatReadyVerdict } from '../../src/report/verdict.ts';
import { createWatchState, type WatchState } from '../../src/report/watch-state.ts';
import { failed, ready } from './scripts.ts';

const stateWith = (overrides: Partial<WatchState> = {}): WatchState => ({
  ...createWatchState(),
  ...overrides,
});

describe('final line', () => {
  it('says when the server became ready and where', () => {
    expect(formatReadyVerdict(ready())).toBe('ready after 2m11s — http://127.0.0.1:30000');
  });

  it('words a crash by exit code, by signal, and by a clean exit before ready', () => {
    expect(formatFailedVerdict(failed(), stateWith(), undefined)).toBe('crashed after 31s (exit code 1)');
    expect(
      formatFailedVerdict(
        failed({ server_exit_code: null, server_signal: 'SIGKILL' }),
        stateWith(),
        undefined,
      ),
    ).toBe('crashed after 31s (signal SIGKILL)');
    expect(formatFailedVerdict(failed({ server_exit_code: 0 }), stateWith(), undefined)).toBe(
      'exited after 31s (exit code 0) before it was ready',
    );
    expect(formatFailedVerdict(failed({ server_exit_code: null }), stateWith(), undefined)).toBe(
      'crashed after 31s',
    );
  });

  it('tells a timeout with progress (raise --timeout) from one without', () => {
    const hour = 3_600_000;
    const event = failed({
      reason: 'timeout',
      exit_code: 4,
      t: hour + 40,
      elapsed_ms: hour,
      phase: 'graph-capture',
    });
    expect(formatFailedVerdict(event, stateWith({ lastProgressT: hour - 5_000 }), undefined)).toBe(
      'timed out after 1h00m — still in phase graph-capture; raise --timeout',
    );
    // The last progress came 47 min before the deadline: longer than the stall window.
    const quiet = stateWith({ lastProgressT: 13 * 60_000 + 40, phase: 'weight-load' });
    expect(formatFailedVerdict({ ...event, phase: null }, quiet, 10 * 60_000)).toBe(
      'timed out after 1h00m — no progress since 13m00s, in phase weight-load',
    );
    expect(formatFailedVerdict({ ...event, phase: null }, stateWith(), undefined)).toBe(
      'timed out after 1h00m — no progress since the start',
    );
  });

  it('names the stall window and phase', () => {
    const event = failed({
      reason: 'stalled',
      exit_code: 5,
      t: 20 * 60_000,
      elapsed_ms: 20 * 60_000,
      phase: 'dist-init',
    });
    expect(formatFailedVerdict(event, stateWith(), 10 * 60_000)).toBe(
      'stalled after 20m00s: no progress for 10m00s in phase dist-init',
    );
    expect(formatFailedVerdict(event, stateWith({ lastProgressT: 8 * 60_000 }), undefined)).toBe(
      'stalled after 20m00s: no progress for 12m00s in phase dist-init',
    );
  });

  it('words interrupts, preflight, smoke and unreachable endings', () => {
    expect(
      formatFailedVerdict(failed({ reason: 'interrupted', exit_code: 130 }), stateWith(), undefined),
    ).toBe('interrupted after 31s');
    const preflight = failed({
      reason: 'preflight',
      exit_code: 2,
      diagnosis: {
        class: 'port-in-use',
        summary: 'port 30000 is held by pid 77 (python)',
        evidence: [],
        advice: [],
      },
    });
    expect(formatFailedVerdict(preflight, stateWith(), undefined)).toBe(
      'preflight failed: port 30000 is held by pid 77 (python)',
    );
    const prefixed = failed({
      reason: 'preflight',
      exit_code: 2,
      message: 'preflight: --foo is not an option',
    });
    expect(formatFailedVerdict(prefixed, stateWith(), undefined)).toBe(
      'preflight failed: --foo is not an option',
    );
    const shown = stateWith({ preflightProblems: { errors: 2, warnings: 1 } });
    expect(formatFailedVerdict(prefixed, shown, undefined)).toBe(
      'preflight failed: 2 errors in the server command (above); nothing was launched',
    );
    const smoke = failed({ reason: 'smoke', exit_code: 7, message: 'the completion was empty' });
    expect(formatFailedVerdict(smoke, stateWith(), undefined)).toBe(
      'smoke test failed after 31s: the completion was empty',
    );
    const unreachable = failed({
      reason: 'unreachable',
      exit_code: 6,
      diagnosis: { class: 'unknown', summary: 'ssh: connection refused', evidence: [], advice: [] },
    });
    expect(formatFailedVerdict(unreachable, stateWith(), undefined)).toBe(
      'host unreachable after 31s: ssh: connection refused',
    );
  });
});
