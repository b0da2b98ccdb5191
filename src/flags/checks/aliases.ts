// Cross-engine equivalents no string metric can find (`--gpu-memory-utilization` ↔ `--mem-fraction-static`):
// each engine lists the purposes it spells its own way (src/engines/<engine>/flags.ts); pairs join them by purpose.
import { FLAG_ENGINES, getEngine } from '../../engines/index.ts';
import type { EngineId } from '../../engines/types.ts';
import type { EngineName, FlagSchema } from '../schema/schema.ts';
import { optionLookup } from '../argparse/parse.ts';

export interface CrossEnginePair {
  purpose: string;
  /** Each engine's spellings, the preferred one first. */
  spellings: Partial<Record<EngineId, readonly string[]>>;
  /** What differs in each engine's reading of it, when the spellings are only near-equivalents. */
  notes: Partial<Record<EngineId, string>>;
}

// One pair per purpose that at least two engines name.
export const CROSS_ENGINE_PAIRS: readonly CrossEnginePair[] = (() => {
  const byPurpose = new Map<string, CrossEnginePair>();
  for (const spec of FLAG_ENGINES) {
    for (const entry of spec.flags?.purposes ?? []) {
      const pair = byPurpose.get(entry.purpose) ?? { purpose: entry.purpose, spellings: {}, notes: {} };
      pair.spellings[spec.id] = entry.options;
      if (entry.note !== undefined) pair.notes[spec.id] = entry.note;
      byPurpose.set(entry.purpose, pair);
    }
  }
  return [...byPurpose.values()].filter((pair) => Object.keys(pair.spellings).length > 1);
})();

// Options a later release of the same engine replaced, for names the schema lacks.
export const replacedBy = (engine: EngineName, name: string): readonly string[] =>
  getEngine(engine).flags?.replaced[name] ?? [];

export interface CrossEngineMatch {
  pair: CrossEnginePair;
  /** The engine whose spelling was typed. */
  theirs: EngineId;
  /** The schema's own spellings for it, preferred first, deprecated ones last. */
  suggestions: string[];
  /** How the two engines' readings differ, when they do. */
  note?: string;
}

// What the schema's engine calls a name that belongs to another engine; null when no pair knows it
// or the schema has none of the counterparts.
export const crossEngineMatch = (schema: FlagSchema, typed: string): CrossEngineMatch | null => {
  const lookup = optionLookup(schema);
  for (const pair of CROSS_ENGINE_PAIRS) {
    const theirs = (Object.keys(pair.spellings) as EngineId[]).find(
      (engine) => engine !== schema.engine && pair.spellings[engine]?.includes(typed) === true,
    );
    if (theirs === undefined) continue;
    const present = (pair.spellings[schema.engine] ?? []).filter((name) => lookup.has(name));
    if (present.length === 0) continue;
    const current = present.filter((name) => lookup.get(name)?.deprecated !== true);
    const deprecated = present.filter((name) => lookup.get(name)?.deprecated === true);
    const notes = [pair.notes[theirs], pair.notes[schema.engine]].filter((note) => note !== undefined);
    return {
      pair,
      theirs,
      suggestions: [...current, ...deprecated],
      ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
    };
  }
  return null;
};
