// Guesses the engine behind a log from the names it prints (paths, banners, launcher names).
import type { EngineId } from '../engines/types.ts';

const HINTS: readonly (readonly [EngineId, RegExp])[] = [
  ['sglang', /sglang|SGLang|launch_server\.py|ServerArgs\(/],
  ['vllm', /vllm|vLLM|Vllm/],
  ['tgi', /text_generation|text-generation/],
];

/** Counts engine hints line by line; bounded state (three counters). */
export interface EngineGuess {
  observe(text: string): void;
  /** The engine with the most hints, or `generic` when none was seen. */
  best(): EngineId;
}

// Creates an empty guess.
export const createEngineGuess = (): EngineGuess => {
  const counts = new Map<EngineId, number>();
  return {
    observe(text) {
      for (const [engine, pattern] of HINTS)
        if (pattern.test(text)) counts.set(engine, (counts.get(engine) ?? 0) + 1);
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
