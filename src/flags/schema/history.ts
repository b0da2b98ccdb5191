// Which bundled release of each engine has which option string: the facts behind "existed until v0.5.9",
// "renamed to --x" and "that is vLLM's spelling". Built from the bundled tables (data/flags/names.json).
import { ENGINES } from '../../engines/index.ts';
import type { EngineName, FlagsJsonAction } from './schema.ts';

export interface NameRecord {
  /** Releases whose parser accepts this option string, oldest first. */
  versions: string[];
  /** argparse dest in the newest release that has it (renames keep the dest). */
  dest: string;
  /** Releases where it is accepted but hidden from --help. */
  hidden: string[];
  /** Releases where it is marked deprecated. */
  deprecated: string[];
}

export interface EngineNames {
  /** Every bundled release, oldest first. */
  versions: string[];
  options: Record<string, NameRecord>;
}

/** Per engine (empty for an engine without flag tables). */
export type NameIndex = Record<EngineName, EngineNames>;

/** How each engine's name is written. */
export const ENGINE_LABEL: Readonly<Record<EngineName, string>> = Object.fromEntries(
  Object.values(ENGINES).map((spec) => [spec.id, spec.label]),
) as Record<EngineName, string>;

// Builds the index from each release's table, releases given oldest first.
export const buildNameIndex = (
  tables: Readonly<
    Partial<Record<EngineName, readonly { version: string; actions: readonly FlagsJsonAction[] }[]>>
  >,
): NameIndex => {
  const build = (
    releases: readonly { version: string; actions: readonly FlagsJsonAction[] }[],
  ): EngineNames => {
    const options: Record<string, NameRecord> = {};
    for (const { version, actions } of releases) {
      for (const action of actions) {
        for (const name of action.flags) {
          const record = (options[name] ??= { versions: [], dest: action.dest, hidden: [], deprecated: [] });
          record.versions.push(version);
          record.dest = action.dest;
          if (action.help_suppressed) record.hidden.push(version);
          if (action.deprecated === true) record.deprecated.push(version);
        }
      }
    }
    const sorted = Object.fromEntries(
      Object.entries(options).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    return { versions: releases.map((r) => r.version), options: sorted };
  };
  return Object.fromEntries(
    Object.values(ENGINES).map((spec) => [spec.id, build(tables[spec.id] ?? [])]),
  ) as NameIndex;
};

// "v0.4.3–v0.5.9", "v0.5.18", or "v0.4.3, v0.5.9" for releases that are not consecutive.
export const describeVersions = (versions: readonly string[], all: readonly string[]): string => {
  if (versions.length === 0) return 'no bundled release';
  const positions = versions.map((v) => all.indexOf(v));
  const consecutive = positions.every((p, i) => i === 0 || p === (positions[i - 1] ?? -2) + 1);
  const first = versions[0] ?? '';
  const last = versions.at(-1) ?? first;
  if (versions.length === 1) return tag(first);
  return consecutive ? `${tag(first)}–${tag(last)}` : versions.map(tag).join(', ');
};

// A release as people write it: `v0.5.18`, or `main` for a development branch.
export const tag = (version: string): string => (version === 'main' ? 'main' : `v${version}`);

// A sentence on an option's history in the bundled releases, e.g. "it existed in SGLang v0.4.3–v0.5.9".
export const describeHistory = (engine: EngineName, record: NameRecord, all: readonly string[]): string => {
  const label = ENGINE_LABEL[engine];
  const range = describeVersions(record.versions, all);
  const newest = all.at(-1);
  const last = record.versions.at(-1);
  if (last !== newest && last !== undefined) {
    const removedIn = all[all.indexOf(last) + 1];
    return `it existed in ${label} ${range}${removedIn === undefined ? '' : ` and is gone in ${tag(removedIn)}`}`;
  }
  return `${label} has it in ${range}`;
};
