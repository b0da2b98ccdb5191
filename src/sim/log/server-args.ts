// The first lines of a start: SGLang's `server_args=ServerArgs(...)` (every field, Python repr, the given
// --api-key verbatim, as the real engine prints it) and vLLM's `non-default args: {...}` (vllm-dependency-01.log).
import type { ArgparseResult, ParsedOption } from '../../flags/argparse/parse.ts';
import type { FlagOption, FlagSchema } from '../../flags/schema/schema.ts';

// Python's repr() of a JSON-like value.
export const pythonRepr = (value: unknown, isFloat = false): string => {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') {
    return isFloat && Number.isInteger(value) ? value.toFixed(1) : String(value);
  }
  if (typeof value === 'string') return reprString(value);
  if (Array.isArray(value)) return `[${value.map((item) => pythonRepr(item)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  }
  return typeof value === 'bigint' ? String(value) : "'?'";
};

const reprString = (text: string): string => {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text
    .replaceAll('\\', '\\\\')
    .replaceAll('\n', '\\n')
    .replaceAll('\r', '\\r')
    .replaceAll('\t', '\\t')
    .replaceAll(quote, `\\${quote}`);
  return `${quote}${body}${quote}`;
};

const FLAG_TRUE = /store_true|StoreTrue|store_const|StoreConst|boolean_optional|StoreBoolean/;

// Converts one occurrence's strings to the value argparse would store, using the option's type.
const typedValue = (option: FlagOption, parsed: ParsedOption): unknown => {
  if (option.nargs === 0) {
    if (/store_false|StoreFalse/.test(option.action)) return false;
    return FLAG_TRUE.test(option.action) ? !parsed.resolved.startsWith('--no-') : true;
  }
  const convert = (text: string): unknown => {
    if (option.type === 'int' || option.type === 'human_readable_int') {
      return /^[+-]?\d+$/.test(text) ? Number(text) : text;
    }
    if (option.type === 'float') return Number.isFinite(Number(text)) ? Number(text) : text;
    if (option.type === 'json') {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    return text;
  };
  const values = parsed.values.map(convert);
  if (option.nargs === null || option.nargs === '?') return values[0] ?? option.default;
  return values;
};

// Every dest with its effective value, in the parser's order (defaults, then what argv set).
const effectiveValues = (schema: FlagSchema, result: ArgparseResult): Map<string, [FlagOption, unknown]> => {
  const values = new Map<string, [FlagOption, unknown]>();
  for (const option of schema.options) {
    if (option.action === 'help' || option.default === '==SUPPRESS==' || values.has(option.dest)) continue;
    values.set(option.dest, [option, option.default]);
  }
  for (const parsed of result.options) {
    const previous: unknown = values.get(parsed.option.dest)?.[1];
    const value = typedValue(parsed.option, parsed);
    const appended =
      parsed.option.action === 'append' && Array.isArray(previous)
        ? [...(previous as unknown[]), value]
        : value;
    values.set(parsed.option.dest, [parsed.option, appended]);
  }
  return values;
};

// SGLang's `ServerArgs(model_path='m', ..., api_key='...', ...)`; tokenizer_path defaults to the model.
export const formatServerArgs = (schema: FlagSchema, result: ArgparseResult): string => {
  const values = effectiveValues(schema, result);
  const model = values.get('model_path')?.[1];
  const tokenizer = values.get('tokenizer_path');
  if (tokenizer !== undefined && tokenizer[1] === null) values.set('tokenizer_path', [tokenizer[0], model]);
  const fields = [...values].map(
    ([dest, [option, value]]) => `${dest}=${pythonRepr(value, option.type === 'float')}`,
  );
  return `ServerArgs(${fields.join(', ')})`;
};

// vLLM's `{'model_tag': 'm', 'host': '127.0.0.1', 'port': 8001, 'model': 'm'}`: what differs from the defaults.
export const formatNonDefaultArgs = (schema: FlagSchema, result: ArgparseResult): string => {
  const entries: string[] = [];
  for (const positional of result.positionals.slice(0, 1))
    entries.push(`'model_tag': ${pythonRepr(positional.value)}`);
  const values = effectiveValues(schema, result);
  const given = new Set(result.options.map((parsed) => parsed.option.dest));
  for (const [dest, [option, value]] of values) {
    if (dest === 'model' && result.positionals[0] !== undefined) {
      entries.push(`'model': ${pythonRepr(result.positionals[0].value)}`);
      continue;
    }
    if (!given.has(dest) || JSON.stringify(value) === JSON.stringify(option.default)) continue;
    entries.push(`${pythonRepr(dest)}: ${pythonRepr(value, option.type === 'float')}`);
  }
  return `{${entries.join(', ')}}`;
};

// The same values as JSON, for SGLang's /server_info.
export const serverArgsJson = (schema: FlagSchema, result: ArgparseResult): Record<string, unknown> => {
  const json: Record<string, unknown> = {};
  for (const [dest, [, value]] of effectiveValues(schema, result)) json[dest] = value ?? null;
  if (json['tokenizer_path'] === null) json['tokenizer_path'] = json['model_path'] ?? null;
  return json;
};
