// A small seeded pseudo-random generator (mulberry32), so that searches that
// make random choices give the same result for the same input (plans, generated
// sample weights, fuzz cases). No dependencies.

/** Returns a generator of numbers in [0, 1), fully determined by `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
