// argparse's value conversion for the types vigil can reproduce exactly (int, float, optional None),
// and the Python reprs its `invalid choice` message prints.
import type { FlagOption } from '../schema/schema.ts';
import { pyFloat, pyInt, pyRepr } from './py-values.ts';

// argparse compares the converted value with each choice; comparing Python reprs is the same test.
export type Converted = { ok: true; repr: string } | { ok: false; message: string };

// argparse's _get_value for the types vigil can reproduce exactly; anything else is kept as text.
export const convert = (type: string | null, text: string): Converted => {
  if (type === 'int') {
    const value = pyInt(text);
    if (value === null) return { ok: false, message: `invalid int value: ${pyRepr(text)}` };
    return { ok: true, repr: value };
  }
  if (type === 'float') {
    const value = pyFloat(text);
    if (value === null) return { ok: false, message: `invalid float value: ${pyRepr(text)}` };
    return { ok: true, repr: Number.isInteger(value) ? `${String(value)}.0` : String(value) };
  }
  if (
    type !== null &&
    /^(nullable_str|optional_type\(.*\))$/.test(type) &&
    (text === '' || text === 'None')
  ) {
    return { ok: true, repr: 'None' };
  }
  return { ok: true, repr: pyRepr(text) };
};

// The type callable's name for conversion: the table's own, else the schema's type.
export const typeOf = (option: FlagOption): string | null =>
  option.pyType === undefined ? option.type : option.pyType;

// Python repr() of each choice, as `invalid choice` lists them.
export const choiceReprs = (option: FlagOption): string[] =>
  option.choiceReprs ?? option.choices?.map((c) => (option.type === 'int' ? c : pyRepr(c))) ?? [];
