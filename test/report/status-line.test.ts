import { describe, expect, it } from 'vitest';
import { renderSegments, statusSegments } from '../../src/report/status-line.ts';
import { createPaint } from '../../src/report/human-lines.ts';
import { applyEvent, createWatchState } from '../../src/report/watch-state.ts';

const noColor = createPaint(false);

describe('status line', () => {
  it('cuts at the width and marks the cut', () => {
    const segments = [
      { text: 'abc', tone: null },
      { text: 'defgh', tone: null },
    ];
    expect(renderSegments(segments, 8, noColor)).toBe('abcdefgh');
    expect(renderSegments(segments, 6, noColor)).toBe('abcde…');
    expect(renderSegments(segments, 4, noColor)).toBe('abc…');
    expect(renderSegments(segments, 0, noColor)).toBe('');
  });

  it('counts a combined character as one', () => {
    expect(renderSegments([{ text: 'e\u0301e\u0301e\u0301', tone: null }], 2, noColor)).toBe('e\u0301…');
  });

  it('keeps colour codes out of the width', () => {
    const line = renderSegments([{ text: 'abcdef', tone: 'red' }], 4, createPaint(true));
    expect(line).toBe('\u001b[31mabc…\u001b[39m');
  });

  it('says starting before the first rung, then the elapsed time and an overdue ETA', () => {
    const state = createWatchState();
    const text = (t: number): string =>
      statusSegments(state, t, 0)
        .map((segment) => segment.text)
        .join('');
    expect(text(500)).toBe('⠋ 500ms · starting');
    state.eta = { ms: 1000, t: 0 };
    expect(text(2500)).toBe('⠋ 3s · starting · past ETA');
  });

  it('takes the ETA from heartbeats too, and drops it when an event says none is known', () => {
    const state = createWatchState();
    const text = (t: number): string =>
      statusSegments(state, t, 0)
        .map((segment) => segment.text)
        .join('');
    applyEvent(state, {
      type: 'heartbeat',
      t: 60_000,
      elapsed_ms: 60_000,
      rung: 'spawned',
      phase: 'weight-load',
      last_line: null,
      eta: { ms: 30_000, basis: '2 earlier starts' },
    });
    expect(text(70_000)).toBe('⠋ 1m10s · spawned · weight-load · ETA 20s');
    applyEvent(state, {
      type: 'phase',
      t: 71_000,
      name: 'kv-cache',
      progress: null,
      previous: null,
      eta: null,
    });
    expect(text(72_000)).toBe('⠋ 1m12s · spawned · kv-cache');
  });
});
