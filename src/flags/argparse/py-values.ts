// Python's own spellings of values, so argparse's messages can be reproduced byte for byte (`'v'`, `3`, `None`).
// Hand-written: no library renders Python reprs or mirrors int()/float() parsing, and these are a few lines each.

// Characters Python's str.isprintable() rejects (control, format, separators other than the space).
const NON_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}\p{Zs}]/u;

const escapeChar = (char: string): string => {
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  if (char === '\t') return '\\t';
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
};

// repr() of a Python str: single quotes unless the text holds a ' and no ", escapes as Python writes them.
export const pyRepr = (text: string): string => {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === '\\') out += '\\\\';
    else if (char === quote) out += `\\${quote}`;
    else if (char !== ' ' && NON_PRINTABLE.test(char)) out += escapeChar(char);
    else out += char;
  }
  return out + quote;
};

// repr() of a JSON value as Python would print it (str, int, float, bool, None).
export const pyReprValue = (value: unknown): string => {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return pyRepr(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return pyRepr(JSON.stringify(value));
};

// str() of a JSON value as Python would print it (help texts list choices this way: `{auto,None}`).
export const pyStr = (value: unknown): string => {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
};

const INT = /^\s*[+-]?\d(?:_?\d)*\s*$/;
const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT = new RegExp(
  String.raw`^\s*[+-]?(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.?)(?:[eE][+-]?${DIGITS})?\s*$|^\s*[+-]?(?:inf|infinity|nan)\s*$`,
  'i',
);

// Python int(text): the value as canonical decimal text, or null when int() raises ValueError.
export const pyInt = (text: string): string | null => {
  if (!INT.test(text)) return null;
  const clean = text.trim().replace(/_/g, '');
  return BigInt(clean).toString();
};

// Python float(text): the number, or null when float() raises ValueError.
export const pyFloat = (text: string): number | null => {
  if (!FLOAT.test(text)) return null;
  const clean = text.trim().replace(/_/g, '').toLowerCase();
  if (clean.endsWith('nan')) return Number.NaN;
  if (clean.endsWith('inf') || clean.endsWith('infinity')) {
    return clean.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  return Number(clean);
};
