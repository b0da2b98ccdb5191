// The one redactor: every string vigil prints or stores passes through it (DESIGN.md "Secrets").

export const MASK = '***';

const SECRET_ENV_NAME = /TOKEN|KEY|SECRET|PASSWORD/i;
const SECRET_FLAGS = new Set(['--api-key', '--admin-api-key']);
// Values shorter than this are not masked inside free text: masking "1" everywhere would wreck logs.
const MIN_FREE_TEXT_SECRET = 4;

export interface RedactorSource {
  /** The server's argv; values of --api-key / --admin-api-key (and `=` forms) become secrets. */
  argv?: readonly string[];
  /** Environment passed to the server; values of variables named like TOKEN, KEY, SECRET or PASSWORD become secrets. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra literal secrets. */
  secrets?: readonly string[];
}

export interface Redactor {
  /** Masks every known secret in a string, plus `api_key=...` / `--api-key X` shapes. */
  (text: string): string;
  /** Masks secrets inside an argv, keeping its shape. */
  argv(argv: readonly string[]): string[];
  /** The secrets this redactor knows (for tests). */
  readonly secrets: readonly string[];
}

// True when an environment variable's name marks its value as secret.
export const isSecretEnvName = (name: string): boolean => SECRET_ENV_NAME.test(name);

// Collects the secret values from argv and env.
export const collectSecrets = (source: RedactorSource): string[] => {
  const found = new Set<string>(source.secrets ?? []);
  const argv = source.argv ?? [];
  argv.forEach((arg, i) => {
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!SECRET_FLAGS.has(name.replaceAll('_', '-'))) return;
    const value = eq === -1 ? argv[i + 1] : arg.slice(eq + 1);
    if (value !== undefined && value !== '') found.add(value);
  });
  for (const [name, value] of Object.entries(source.env ?? {})) {
    if (value !== undefined && value !== '' && isSecretEnvName(name)) found.add(value);
  }
  return [...found].filter((s) => s.length >= MIN_FREE_TEXT_SECRET).sort((a, b) => b.length - a.length);
};

// Shapes that carry a secret whatever its value: SGLang's ServerArgs repr and flags echoed in logs.
const SHAPES: [RegExp, string][] = [
  [/\b((?:admin_)?api_key=)('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s,)]+)/g, `$1'${MASK}'`],
  [/(--(?:admin-)?api[-_]key(?:=|\s+))(?!-)(\S+)/g, `$1${MASK}`],
  [/\b(Authorization:\s*Bearer\s+)\S+/gi, `$1${MASK}`],
  [/\b([A-Z0-9_]*(?:TOKEN|KEY|SECRET|PASSWORD)[A-Z0-9_]*=)(\S+)/g, `$1${MASK}`],
];

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Builds a redactor for one launch.
export const createRedactor = (source: RedactorSource = {}): Redactor => {
  const secrets = collectSecrets(source);
  const literal = secrets.length === 0 ? null : new RegExp(secrets.map(escapeRegExp).join('|'), 'g');
  const redact = (text: string): string => {
    let out = literal === null ? text : text.replace(literal, MASK);
    for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
    return out;
  };
  const redactArgv = (argv: readonly string[]): string[] =>
    argv.map((arg, i) => {
      const previous = argv[i - 1];
      if (previous !== undefined && SECRET_FLAGS.has(previous.replaceAll('_', '-'))) return MASK;
      return redact(arg);
    });
  return Object.assign(redact, { argv: redactArgv, secrets });
};
