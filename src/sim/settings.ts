// The simulator's controls: the VIGIL_SIM_* environment variables, validated before anything starts.
import { invalidOption } from '../errors.ts';

export interface SimSettings {
  /** Multiplies every simulated startup duration (1 = realistic minutes, 0.01 = 100x faster). */
  timeScale: number;
  /** The raw `<class>@<phase-id>` failure request, checked against the engine and command later. */
  fail: string | null;
  /** Statuses `/health` cycles through after ready when the failure class is `flap`. */
  flap: number[];
  /** Decode speed of one request without a draft model. */
  tokensPerSecond: number;
  /** Delay before the first token of a response. */
  ttftMs: number;
  /** Mean tokens accepted per verify step when a draft model is configured. */
  acceptLength: number;
  /** How OpenAI-API generation fails after ready (smoke tests): an HTTP 500, an empty answer, or no answer. */
  generationFail: GenerationFail | null;
  /** Where to append one JSON line per lifecycle event (listening, healthy, ready-line, exit). */
  tracePath: string | null;
  /** The engine release whose line shapes the simulator prints (`--engine-version`); null = the newest. */
  engineVersion: string | null;
}

export const GENERATION_FAILS = ['500', 'empty', 'hang'] as const;
export type GenerationFail = (typeof GENERATION_FAILS)[number];

const readGenerationFail = (env: NodeJS.ProcessEnv): GenerationFail | null => {
  const text = env['VIGIL_SIM_GENERATION_FAIL']?.trim() ?? '';
  if (text === '') return null;
  if (!(GENERATION_FAILS as readonly string[]).includes(text))
    throw invalidOption(
      'VIGIL_SIM_GENERATION_FAIL',
      'one of 500, empty, hang',
      text,
      'chat and text completions then answer HTTP 500, stream an empty answer, or never answer',
    );
  return text as GenerationFail;
};

export const SIM_DEFAULTS = {
  timeScale: 1,
  flap: [200, 503, 503],
  tokensPerSecond: 60,
  ttftMs: 150,
  acceptLength: 3.2,
} as const;

const readNumber = (
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  valid: (n: number) => boolean,
  expected: string,
): number => {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) {
    throw invalidOption(name, expected, text, `unset ${name} to use the default (${fallback})`);
  }
  return value;
};

const readFlap = (env: NodeJS.ProcessEnv): number[] => {
  const text = env['VIGIL_SIM_FLAP'];
  if (text === undefined || text.trim() === '') return [...SIM_DEFAULTS.flap];
  const statuses = text.split(',').map((part) => Number(part.trim()));
  if (statuses.some((status) => !Number.isInteger(status) || status < 100 || status > 599)) {
    throw invalidOption(
      'VIGIL_SIM_FLAP',
      'a comma list of HTTP statuses such as 200,503,503',
      text,
      'each /health answer after ready takes the next status in the list, repeating',
    );
  }
  return statuses;
};

// Reads and validates every VIGIL_SIM_* variable; throws a UsageError naming the variable at fault.
export const readSimSettings = (env: NodeJS.ProcessEnv): SimSettings => {
  const fail = env['VIGIL_SIM_FAIL']?.trim() ?? '';
  const trace = env['VIGIL_SIM_TRACE'] ?? '';
  const version = env['VIGIL_SIM_ENGINE_VERSION']?.trim() ?? '';
  return {
    timeScale: readNumber(
      env,
      'VIGIL_SIM_TIME_SCALE',
      SIM_DEFAULTS.timeScale,
      (n) => n >= 0,
      'a number >= 0 (1 = realistic, 0.01 = 100x faster)',
    ),
    fail: fail === '' ? null : fail,
    flap: readFlap(env),
    tokensPerSecond: readNumber(
      env,
      'VIGIL_SIM_TOKENS_PER_S',
      SIM_DEFAULTS.tokensPerSecond,
      (n) => n > 0,
      'a number of tokens per second > 0',
    ),
    ttftMs: readNumber(env, 'VIGIL_SIM_TTFT_MS', SIM_DEFAULTS.ttftMs, (n) => n >= 0, 'milliseconds >= 0'),
    acceptLength: readNumber(
      env,
      'VIGIL_SIM_ACCEPT_LEN',
      SIM_DEFAULTS.acceptLength,
      (n) => n >= 1,
      'a mean acceptance length >= 1',
    ),
    generationFail: readGenerationFail(env),
    tracePath: trace === '' ? null : trace,
    engineVersion: version === '' ? null : version,
  };
};
