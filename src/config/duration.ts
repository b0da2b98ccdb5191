import { invalidOption } from '../errors.ts';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

// Parses `500ms`, `10s`, `15m`, `1h` (and combinations such as `1m30s`) into milliseconds.
export const parseDuration = (text: string, option = 'duration'): number => {
  const trimmed = text.trim();
  if (trimmed === '') throw invalidOption(option, 'a duration such as 500ms, 10s, 15m or 1h', text);
  let total = 0;
  let rest = trimmed;
  while (rest !== '') {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (match === null) {
      const hint = /^\d+(\.\d+)?$/.test(trimmed) ? `add a unit, e.g. ${trimmed}s` : undefined;
      throw invalidOption(option, 'a duration such as 500ms, 10s, 15m or 1h', text, hint);
    }
    total += Number(match[1]) * (UNITS[match[2] ?? 's'] ?? 1000);
    rest = rest.slice(match[0].length);
  }
  return Math.round(total);
};

// Formats milliseconds the way people say them: 850ms, 31s, 2m11s, 1h04m.
export const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h${String(minutes).padStart(2, '0')}m`;
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
};
