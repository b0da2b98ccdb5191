// Guesses the engine behind a log from the names it prints (paths, banners, launcher names).
import { getEngine, NAMED_ENGINES } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';

const HINTS: readonly (readonly [EngineId, RegExp])[] = NAMED_ENGINES.flatMap((engine) =>
  engine.hints === null ? [] : [[engine.id, engine.hints] as const],
);
const WEAK_HINTS: readonly (readonly [EngineId, RegExp])[] = NAMED_ENGINES.flatMap((engine) =>
  engine.weakHints === undefined ? [] : [[engine.id, engine.weakHints] as const],
);

// The engine counted most often, or `generic` when none was.
const mostCounted = (counts: ReadonlyMap<EngineId, number>): EngineId => {
  let best: EngineId = 'generic';
  let most = 0;
  for (const [engine, count] of counts) {
    if (count > most) {
      best = engine;
      most = count;
    }
  }
  return best;
};

/** Counts engine hints line by line; bounded state (one counter per engine, the first release named). */
export interface EngineGuess {
  observe(text: string): void;
  /** The engine with the most hints; where none was seen, the one whose line shape was seen most; else `generic`. */
  best(): EngineId;
  /** The release the log names for an engine (its version banner), or null. */
  version(engine: EngineId): string | null;
}

// The name a user gave an environment says nothing of the engine that runs in it (a conda env `vllm` running SGLang):
// `/envs/vllm/`, `/vllm/lib/python3.10/`, `/vllm/bin/`, and a shell prompt's `(vllm) user@host:~$`.
const ENVIRONMENT_NAME = /\/envs\/[\w.-]+\/|\/[\w.-]+\/(?=(?:lib\/python\d|bin\/))|^\([\w.-]+\) (?=\S+@)/g;

// Creates an empty guess.
export const createEngineGuess = (): EngineGuess => {
  const counts = new Map<EngineId, number>();
  const weakCounts = new Map<EngineId, number>();
  const versions = new Map<EngineId, string>();
  return {
    observe(raw) {
      if (counts.size === 0)
        for (const [engine, pattern] of WEAK_HINTS)
          if (pattern.test(raw)) weakCounts.set(engine, (weakCounts.get(engine) ?? 0) + 1);
      const text = raw.includes('/') || raw.startsWith('(') ? raw.replace(ENVIRONMENT_NAME, '/') : raw;
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
      return mostCounted(counts.size === 0 ? weakCounts : counts);
    },
  };
};
