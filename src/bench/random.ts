// A seedable random source for arrivals and synthetic prompts. Hand-written: mulberry32 is six lines, and a
// run must be repeatable from its --seed, which Math.random cannot give.
export type Random = () => number;

export const seededRandom = (seed: number): Random => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

// The wait before the next arrival of a Poisson process with `rate` per second (exponential gaps), in ms.
export const exponentialGapMs = (random: Random, rate: number): number =>
  (-Math.log(1 - random()) / rate) * 1000;
