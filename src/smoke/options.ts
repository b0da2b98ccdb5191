// --smoke-timeout: defined once for `vigil smoke` and `vigil up --smoke`, with its default and range.
import { invalidOption } from '../errors.ts';
import { parseDuration } from '../config/duration.ts';

export const SMOKE_TIMEOUT = { default: '30s', min: '1s', max: '10m' } as const;

export const SMOKE_TIMEOUT_HELP = `limit for the whole smoke test, ${SMOKE_TIMEOUT.min} to ${SMOKE_TIMEOUT.max}`;

// Parses --smoke-timeout; throws a UsageError outside the range.
export const parseSmokeTimeout = (text: string): number => {
  const ms = parseDuration(text, '--smoke-timeout');
  if (ms < parseDuration(SMOKE_TIMEOUT.min) || ms > parseDuration(SMOKE_TIMEOUT.max))
    throw invalidOption(
      '--smoke-timeout',
      `a duration from ${SMOKE_TIMEOUT.min} to ${SMOKE_TIMEOUT.max}`,
      text,
    );
  return ms;
};
