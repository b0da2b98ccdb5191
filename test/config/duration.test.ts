import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/config/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1.5s', 1500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('names the option, what was expected and what came', () => {
    expect(() => parseDuration('10', '--timeout')).toThrow(/--timeout: expected a duration .* got "10"/);
    expect(() => parseDuration('soon', '--interval')).toThrow(/--interval/);
  });
});

describe('formatDuration', () => {
  it.each([
    [850, '850ms'],
    [31_000, '31s'],
    [131_000, '2m11s'],
    [3_840_000, '1h04m'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
