// Options `vigil bench` and `vigil smoke` share: base URLs, the engine, the API key's variable.
import { invalidOption } from '../errors.ts';
import type { EngineId } from '../engines/types.ts';

// An http(s) URL; anything else is a usage error naming the option.
export const parseBaseUrl = (text: string, option: string): URL => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidOption(option, 'an http(s) URL such as http://127.0.0.1:30000', text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidOption(option, 'an http(s) URL such as http://127.0.0.1:30000', text);
  return url;
};

const ENGINES = ['auto', 'sglang', 'vllm', 'tgi', 'generic'] as const;

export const parseEngine = (text: string): EngineId | 'auto' => {
  if (!(ENGINES as readonly string[]).includes(text))
    throw invalidOption('--engine', `one of ${ENGINES.join(', ')}`, text);
  return text as EngineId | 'auto';
};

// The API key from the named environment variable (keys never go on the command line, where ps shows them).
export const readApiKey = (name: string | undefined, env: NodeJS.ProcessEnv): string | undefined => {
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined || value === '')
    throw invalidOption(
      '--api-key-env',
      'the name of a set environment variable',
      name,
      `export ${name}=<key> first`,
    );
  return value;
};

// A whole number within a range.
export const parseWhole = (
  text: string,
  option: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max)
    throw invalidOption(
      option,
      `a whole number from ${String(min)}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${String(max)}`}`,
      text,
    );
  return Number(text);
};

// A positive number (rates).
export const parsePositive = (text: string, option: string): number => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw invalidOption(option, 'a number above 0, e.g. 2.5', text);
  return value;
};
