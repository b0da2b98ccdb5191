// --smoke-timeout: defined once for `vigil smoke` and `vigil up --smoke`, with its default and range.
import { invalidOption } from '../errors.ts';
import { formatDuration, parseDuration } from '../config/duration.ts';

export const SMOKE_TIMEOUT = { default: '30s', minMs: 1000, maxMs: 10 * 60 * 1000 } as const;

export const SMOKE_TIMEOUT_HELP = `limit for the whole smoke test, ${formatDuration(SMOKE_TIMEOUT.minMs)} to ${formatDuration(SMOKE_TIMEOUT.maxMs)}`;

// Parses --smoke-timeout; throws a UsageError outside the range.
export const parseSmokeTimeout = (text: string): number => {
  const ms = parseDuration(text, '--smoke-timeout');
  if (ms < SMOKE_TIMEOUT.minMs || ms > SMOKE_TIMEOUT.maxMs)
    throw invalidOption(
      '--smoke-timeout',
      `a duration from ${formatDuration(SMOKE_TIMEOUT.minMs)} to ${formatDuration(SMOKE_TIMEOUT.maxMs)}`,
      text,
    );
  return ms;
};
