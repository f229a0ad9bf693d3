// The .tflite generators of the file campaign make what they say: table
// mutations change tables and never weight bytes, random models mostly reach
// the planner, and the same random source gives the same file.

import { describe, expect, it } from 'vitest';
import { checkModel } from './check-model';
import { dataRanges, mutateTables, randomTfliteModel, writerSeeds } from './mutate-tflite';
import { hashSeed, Rng } from './random';

describe('the .tflite generators of the fuzz campaign', () => {
  it('overwrite words of the tables, never the data of a buffer', () => {
    for (const seed of writerSeeds()) {
      const data = dataRanges(seed.bytes);
      expect(data.length, seed.name).toBeGreaterThan(0);
      let changed = 0;
      for (let i = 0; i < 200; i++) {
        const { bytes } = mutateTables(new Rng(hashSeed('tables', i)), seed.name, seed.bytes);
        const touched = data.find(([start, end]) => bytes.subarray(start, end).some((b, k) => b !== seed.bytes[start + k]));
        expect(touched, `${seed.name} #${i}`).toBeUndefined();
        if (bytes.some((b, k) => b !== seed.bytes[k])) changed++;
      }
      expect(changed, seed.name).toBeGreaterThan(150);
    }
  });

  it('make random models of which most are planned, for TFLite Micro too, with no finding', () => {
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const model = randomTfliteModel(new Rng(hashSeed('random tflite', i)));
      const outcome = checkModel(model.bytes, { target: 'tflm', strategy: undefined });
      expect(outcome.findings, model.label).toEqual([]);
      const key = outcome.rejected ?? 'planned';
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    expect(outcomes.get('planned') ?? 0).toBeGreaterThan(120);
    expect(outcomes.get('bad-graph') ?? 0).toBeGreaterThan(0);
  });

  it('give the same file for the same random source', () => {
    expect(randomTfliteModel(new Rng(9)).bytes).toEqual(randomTfliteModel(new Rng(9)).bytes);
    const seed = writerSeeds()[0]!;
    expect(mutateTables(new Rng(9), seed.name, seed.bytes).bytes).toEqual(mutateTables(new Rng(9), seed.name, seed.bytes).bytes);
  });
});
