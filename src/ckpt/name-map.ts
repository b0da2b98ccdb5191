// Tensor-name maps: `REGEX=>REPLACEMENT` rules (JavaScript RegExp, `$1` replacements), first matching rule wins.
import { CheckpointError } from './errors.ts';

export interface RenameRule {
  pattern: RegExp;
  replacement: string;
  /** The rule as the user wrote it. */
  text: string;
}

export interface NameChange {
  from: string;
  to: string;
  /** Which file holds the tensor (shards), when known. */
  file?: string;
}

const MAP_HINT = "write each rule as 'REGEX=>REPLACEMENT', e.g. --map '^layers\\.0\\.(.+)$=>midlayer.$1'";

// Parses one --map argument.
export const parseRule = (text: string): RenameRule => {
  const at = text.indexOf('=>');
  if (at <= 0) {
    throw new CheckpointError(
      'InvalidMap',
      `--map: expected REGEX=>REPLACEMENT, got ${JSON.stringify(text)}`,
      MAP_HINT,
    );
  }
  const source = text.slice(0, at);
  let pattern: RegExp;
  try {
    pattern = new RegExp(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CheckpointError(
      'InvalidMap',
      `--map: ${JSON.stringify(source)} is not a valid regular expression (${reason})`,
      MAP_HINT,
    );
  }
  return { pattern, replacement: text.slice(at + 2), text };
};

// The new name of one tensor: the first rule whose pattern matches rewrites it; no match keeps the name.
export const applyRules = (name: string, rules: readonly RenameRule[]): string => {
  for (const rule of rules) {
    if (rule.pattern.test(name)) return name.replace(rule.pattern, rule.replacement);
  }
  return name;
};

// Maps every name and refuses a result that is empty, reserved or shared by two tensors.
export const planNames = (
  names: readonly { name: string; file?: string }[],
  rules: readonly RenameRule[],
): NameChange[] => {
  const changes = names.map(({ name, file }) => ({
    from: name,
    to: applyRules(name, rules),
    ...(file === undefined ? {} : { file }),
  }));
  const byTarget = new Map<string, NameChange[]>();
  for (const change of changes) {
    if (change.to === '' || change.to === '__metadata__') {
      throw new CheckpointError(
        'InvalidMap',
        `the map renames ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)}, which is not a usable tensor name`,
        'change the replacement so every tensor keeps a non-empty name other than __metadata__; nothing was changed',
      );
    }
    byTarget.set(change.to, [...(byTarget.get(change.to) ?? []), change]);
  }
  const clashes = [...byTarget.entries()].filter(([, list]) => list.length > 1);
  if (clashes.length > 0) {
    const lines = clashes
      .slice(0, 5)
      .map(
        ([to, list]) =>
          `${list.map((c) => JSON.stringify(c.from)).join(' and ')} would both become ${JSON.stringify(to)}`,
      );
    throw new CheckpointError(
      'NameCollision',
      `the map sends two tensors to the same name: ${lines.join('; ')}${clashes.length > 5 ? ` (and ${clashes.length - 5} more)` : ''}`,
      'make the map one-to-one (check with --dry-run); nothing was changed',
    );
  }
  return changes;
};

export const changed = (changes: readonly NameChange[]): NameChange[] =>
  changes.filter((c) => c.from !== c.to);
