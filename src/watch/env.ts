// The server's extra environment from `--env K=V`, `--env NAME` (copied from vigil's own) and `--env-file F`.
// Hand-written: dotenv-style parsers differ on quoting, and this format is small enough to own and test.
import { readUserFileSync } from '../config/user-file.ts';
import { UsageError, invalidOption } from '../errors.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Parses KEY=VALUE lines: `#` comments, blank lines, an optional `export `, and '…' or "…" quoted values.
export const parseEnvFile = (text: string, path: string): Record<string, string> => {
  const env: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const body = line.startsWith('export ') ? line.slice(7).trimStart() : line;
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq).trim();
    if (eq === -1 || !NAME.test(name)) {
      throw new UsageError(
        `${path}:${index + 1}: expected NAME=VALUE, got ${JSON.stringify(raw.trim().slice(0, 40))}`,
        {
          option: '--env-file',
          hint: 'one NAME=VALUE per line; # starts a comment',
        },
      );
    }
    env[name] = unquote(body.slice(eq + 1).trim(), `${path}:${index + 1}`);
  });
  return env;
};

const unquote = (value: string, where: string): string => {
  const quote = value[0];
  if (quote !== '"' && quote !== "'") {
    const hash = value.search(/\s#/);
    return hash === -1 ? value : value.slice(0, hash).trimEnd();
  }
  const end = value.lastIndexOf(quote);
  if (end === 0)
    throw new UsageError(`${where}: the value opens a ${quote} quote but never closes it`, {
      option: '--env-file',
    });
  const inner = value.slice(1, end);
  if (quote === "'") return inner;
  return inner.replace(/\\([nrt"\\$])/g, (_match, c: string) =>
    c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c,
  );
};

// The three sources of the extra environment, as the CLI collects them.
export interface EnvSources {
  /** `--env` values in order: `K=V`, or `NAME` to copy from `from`. */
  pairs?: readonly string[];
  /** `--env-file` paths, in order; later files and then `pairs` win. */
  files?: readonly string[];
  /** vigil's own environment, for `--env NAME`. */
  from: NodeJS.ProcessEnv;
}

// Builds the extra environment; throws UsageError for a malformed pair, an unset NAME or an unreadable file.
export const resolveEnv = (sources: EnvSources): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const path of sources.files ?? []) {
    let text: string;
    try {
      text = readUserFileSync(path);
    } catch (error) {
      throw new UsageError(
        `--env-file ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        {
          option: '--env-file',
          hint: 'give the path of a readable file of NAME=VALUE lines',
        },
      );
    }
    Object.assign(env, parseEnvFile(text, path));
  }
  for (const pair of sources.pairs ?? []) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (!NAME.test(name)) throw invalidOption('--env', 'NAME=VALUE or NAME', pair);
    if (eq !== -1) {
      env[name] = pair.slice(eq + 1);
      continue;
    }
    const value = sources.from[name];
    if (value === undefined) {
      throw new UsageError(
        `--env ${name}: ${name} is not set in vigil's environment, so there is nothing to copy`,
        {
          option: '--env',
          hint: `set it first (export ${name}=...) or pass --env ${name}=VALUE`,
        },
      );
    }
    env[name] = value;
  }
  return env;
};
