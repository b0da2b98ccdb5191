// Guesses the engine behind a log from the names it prints (paths, banners, launcher names).
import { getEngine, NAMED_ENGINES } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';

const HINTS: readonly (readonly [EngineId, RegExp])[] = NAMED_ENGINES.flatMap((engine) =>
  engine.hints === null ? [] : [[engine.id, engine.hints] as const],
);

/** Counts engine hints line by line; bounded state (one counter per engine, the first release named). */
export interface EngineGuess {
  observe(text: string): void;
  /** The engine with the most hints, or `generic` when none was seen. */
  best(): EngineId;
  /** The release the log names for an engine (its version banner), or null. */
  version(engine: EngineId): string | null;
}

// Creates an empty guess.
export const createEngineGuess = (): EngineGuess => {
  const counts = new Map<EngineId, number>();
  const versions = new Map<EngineId, string>();
  return {
    observe(text) {
      for (const [engine, pattern] of HINTS) {
        if (!pattern.test(text)) continue;
        counts.set(engine, (counts.get(engine) ?? 0) + 1);
        if (!versions.has(engine)) {
          const version = getEngine(engine).versionFromLog?.(text) ?? null;
          if (version !== null) versions.set(engine, version);
        }
      }
    },
    version(engine) {
      return versions.get(engine) ?? null;
    },
    best() {
      let best: EngineId = 'generic';
      let most = 0;
      for (const [engine, count] of counts) {
        if (count > most) {
          best = engine;
          most = count;
        }
      }
      return best;
    },
  };
};
