import { describe, expect, it } from 'vitest';
import { largestFreeBlocks, type PlacedSpan } from './free-blocks';

const span = (offset: number, size: number, start: number, end: number): PlacedSpan => ({ offset, size, start, end });

/** The largest free block at `step`, by testing every byte of the arena. */
function byBytes(spans: readonly PlacedSpan[], capacity: number, step: number): number {
  let largest = 0;
  let run = 0;
  for (let byte = 0; byte < capacity; byte += 1) {
    const held = spans.some((b) => b.size > 0 && b.start <= step && step < b.end && b.offset <= byte && byte < b.offset + b.size);
    run = held ? 0 : run + 1;
    largest = Math.max(largest, run);
  }
  return largest;
}

describe('the largest free block at each step', () => {
  it('is the arena when nothing is live, the gap between buffers, and the room above the highest', () => {
    const spans = [span(0, 100, 1, 3), span(300, 50, 2, 4), span(150, 100, 3, 5)];
    // step 0: empty; 1: [0,100) held; 2: [0,100) and [300,350); 3: [150,250) and [300,350); 4: [150,250)
    expect([...largestFreeBlocks(spans, 400, 6)]).toEqual([400, 300, 200, 150, 150, 400]);
  });

  it('counts a buffer nested inside another (an alias) once, and nothing past the capacity', () => {
    const spans = [span(0, 200, 0, 2), span(50, 20, 0, 2), span(500, 100, 0, 2)];
    expect([...largestFreeBlocks(spans, 400, 2)]).toEqual([200, 200]);
  });

  it('is 0 for a full arena and ignores empty or never-live buffers', () => {
    const spans = [span(0, 64, 0, 1), span(64, 64, 0, 1), span(10, 0, 0, 1), span(0, 128, 1, 1)];
    expect([...largestFreeBlocks(spans, 128, 1)]).toEqual([0]);
  });

  it('agrees with a byte-by-byte count on random plans', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let trial = 0; trial < 60; trial += 1) {
      const steps = 1 + random(8);
      const capacity = 16 + random(48);
      const spans = Array.from({ length: random(10) }, () => {
        const start = random(steps);
        return span(random(capacity), random(20), start, start + random(steps - start + 1));
      });
      const fast = largestFreeBlocks(spans, capacity, steps);
      for (let s = 0; s < steps; s += 1) expect(fast[s]).toBe(byBytes(spans, capacity, s));
    }
  });
});
