// The one redactor: every string vigil prints or stores passes through it (docs/cli.md, secrets). It masks the
// secrets it was told (argv, env, literals), the secrets it learns from log lines (SGLang's server_args echo), and
// shapes that carry a secret whatever its value: secret flags (and any option named close to one), credentials in
// URLs, bearer headers and NAME=value pairs named like tokens.
import type { VigilEvent } from '../events.ts';
import { escapeRegExp } from '../regexp.ts';

export const MASK = '***';

const SECRET_ENV_NAME = /TOKEN|KEY|SECRET|PASSWORD/i;
/** The engines' secret flags, without dashes. */
const SECRET_FLAG_NAMES = ['api-key', 'admin-api-key'];
/** Words that make any option's value secret, e.g. --hf-token, --client-secret. */
const SECRET_WORDS = new Set(['token', 'secret', 'password', 'passwd', 'apikey', 'key']);
// Values shorter than this are not masked inside free text: masking "1" everywhere would wreck logs.
const MIN_FREE_TEXT_SECRET = 4;

export interface RedactorSource {
  /** The server's argv; values of secret options (and `=` forms) and URL passwords become secrets. */
  argv?: readonly string[];
  /** Environment passed to the server; values of variables named like TOKEN, KEY, SECRET or PASSWORD become secrets. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra literal secrets. */
  secrets?: readonly string[];
  /** URLs vigil prints or stores (`vigil wait URL`, `--url`): their passwords become secrets. */
  urls?: readonly string[];
}

export interface Redactor {
  /** Masks every known secret in a string, plus secret shapes (`api_key=...`, `--api-key X`, `user:pw@`). */
  (text: string): string;
  /** Masks secrets inside an argv, keeping its shape. */
  argv(argv: readonly string[]): string[];
  /** Learns the secrets a log line reveals (`api_key='...'`), so that later mentions of the bare value are masked. */
  learn(text: string): void;
  /** The secrets this redactor knows (for tests). */
  readonly secrets: readonly string[];
}

// True when an environment variable's name marks its value as secret.
export const isSecretEnvName = (name: string): boolean => SECRET_ENV_NAME.test(name);

// True when an option's value is secret: a secret flag, an abbreviation of one (argparse accepts unique prefixes),
// a misspelling within two edits (`--api-kye`), or a name with a secret word (`--hf-token`).
export const isSecretOption = (option: string): boolean => {
  if (!option.startsWith('--')) return false;
  const name = option.slice(2).toLowerCase().replaceAll('_', '-');
  if (name.length < 3) return false;
  for (const flag of SECRET_FLAG_NAMES) {
    if (flag.startsWith(name) && (flag === 'api-key' || name.length >= 5)) return true;
    if (editDistance(name, flag) <= 2) return true;
  }
  return name.split('-').some((word) => SECRET_WORDS.has(word));
};

// Collects the secret values from argv, env and URLs.
export const collectSecrets = (source: RedactorSource): string[] => {
  const found = new Set<string>(source.secrets ?? []);
  const argv = source.argv ?? [];
  argv.forEach((arg, i) => {
    for (const password of urlPasswords(arg)) found.add(password);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!isSecretOption(name)) return;
    const value = eq === -1 ? argv[i + 1] : arg.slice(eq + 1);
    if (value !== undefined && value !== '' && !(eq === -1 && value.startsWith('--'))) found.add(value);
  });
  for (const [name, value] of Object.entries(source.env ?? {})) {
    if (value === undefined || value === '') continue;
    if (isSecretEnvName(name)) found.add(value);
    for (const password of urlPasswords(value)) found.add(password);
  }
  for (const url of source.urls ?? []) for (const password of urlPasswords(url)) found.add(password);
  return usable([...found]);
};

const usable = (secrets: readonly string[]): string[] =>
  [...new Set(secrets)].filter((s) => s.length >= MIN_FREE_TEXT_SECRET).sort((a, b) => b.length - a.length);

const URL_USERINFO = /\b[a-z][a-z0-9+.-]*:\/\/([^\s:/?#@]*)(?::([^\s/?#@]*))?@/gi;

// The passwords (or bare tokens) in a text's URLs, raw and percent-decoded.
const urlPasswords = (text: string): string[] => {
  if (!text.includes('@')) return [];
  const out: string[] = [];
  for (const match of text.matchAll(URL_USERINFO)) {
    const secret = match[2] ?? match[1];
    if (secret === undefined || secret === '') continue;
    out.push(secret);
    try {
      out.push(decodeURIComponent(secret));
    } catch {
      // not percent-encoded
    }
  }
  return out;
};

// Shapes that carry a secret whatever its value: SGLang's ServerArgs repr, flags echoed in logs, URLs with
// credentials, bearer headers, NAME=value pairs.
const SHAPES: [RegExp, string | ((...parts: string[]) => string)][] = [
  [/\b((?:admin_)?api_key=)('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s,)]+)/g, `$1'${MASK}'`],
  [
    /(--[A-Za-z][\w-]*)(=|[ \t]+)(?!-)([^\s'",)]+)/g,
    (whole: string, option: string, sep: string) =>
      isSecretOption(option) ? `${option}${sep}${MASK}` : whole,
  ],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi, `$1${MASK}@`],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s:/?#@]+@/gi, `$1${MASK}@`],
  [/\b(Authorization:\s*(?:Bearer|Basic)\s+)\S+/gi, `$1${MASK}`],
  [/\b([A-Z0-9_]*(?:TOKEN|KEY|SECRET|PASSWORD)[A-Z0-9_]*=)(\S+)/g, `$1${MASK}`],
];

// What a log line reveals: api_key='...' in SGLang's server_args, or --api-key X echoed.
const LEARNABLE = /\b(?:admin_)?api_key=(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^\s,)]+))/g;

// Builds a redactor for one launch.
export const createRedactor = (source: RedactorSource = {}): Redactor => {
  let secrets = collectSecrets(source);
  let literal = literalPattern(secrets);
  const redact = (text: string): string => {
    let out = literal === null ? text : text.replace(literal, MASK);
    for (const [pattern, replacement] of SHAPES) {
      out =
        typeof replacement === 'string'
          ? out.replace(pattern, replacement)
          : out.replace(pattern, replacement);
    }
    return out;
  };
  const learn = (text: string): void => {
    if (!text.includes('api_key=')) return;
    const found: string[] = [];
    for (const match of text.matchAll(LEARNABLE)) {
      const value = match[1] ?? match[2] ?? match[3];
      if (value !== undefined && value !== 'None' && value !== MASK) found.push(value);
    }
    const next = usable([...secrets, ...found]);
    if (next.length === secrets.length) return;
    secrets = next;
    literal = literalPattern(secrets);
  };
  const redactor = Object.assign(redact, {
    argv: (argv: readonly string[]) => redactArgv(argv, redact),
    learn,
  });
  Object.defineProperty(redactor, 'secrets', { get: () => secrets, enumerable: true });
  return redactor as Redactor;
};

const literalPattern = (secrets: readonly string[]): RegExp | null =>
  secrets.length === 0 ? null : new RegExp(secrets.map(escapeRegExp).join('|'), 'g');

// Redacts an argv, masking the value that follows a secret option whatever it is.
export const redactArgv = (argv: readonly string[], redact: (text: string) => string): string[] =>
  argv.map((arg, i) => {
    const previous = argv[i - 1];
    if (
      previous !== undefined &&
      !previous.includes('=') &&
      isSecretOption(previous) &&
      !arg.startsWith('--')
    ) {
      return MASK;
    }
    return redact(arg);
  });

// A deep copy of an event with every string passed through the redactor, before any renderer formats it, so JSON
// stays valid and no secret reaches a line by way of a field a whole-line pass might not recognise.
export const redactEvent = <E extends VigilEvent>(event: E, redact: (text: string) => string): E =>
  redactValue(event, redact) as E;

const redactValue = (value: unknown, redact: (text: string) => string): unknown => {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, redact)]));
  }
  return value;
};

// Levenshtein distance with transpositions (optimal string alignment), for short option names.
const editDistance = (a: string, b: string): number => {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const up = (rows[i - 1] as number[])[j] ?? 0;
      const diag = (rows[i - 1] as number[])[j - 1] ?? 0;
      let best = Math.min(up + 1, (row[j - 1] ?? 0) + 1, diag + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] ?? 3;
};
