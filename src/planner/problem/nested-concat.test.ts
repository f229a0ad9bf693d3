// Nested Concat (issue 13 item 4): a DenseNet chain, where each Concat's first
// input is the previous Concat's output, shares one growing buffer; the bound
// counts it; every preset and strategy gives a valid plan.

import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { assignOffsets } from '../assembly/assign-offsets';
import { buildProblem, type BuiltProblem } from './build-problem';
import { lowerBound } from './lower-bound';
import { planModel } from '../plan';
import { PRESET_NAMES, presetTarget } from '../targets/presets';
import { STRATEGY_NAMES } from '../strategies/registry';
import { validatePlan } from '../assembly/validate-plan';
import { placerOf } from '../testing/placer';

const BYTES_PER_CHANNEL = 8 * 8 * 4; // 8×8 float32

/**
 * A dense block of `layers` layers on a 64-channel map: each layer's 3×3 Conv
 * reads the block so far and adds 32 channels by a Concat; a 1×1 transition
 * Conv to 16 channels ends it. Returns the model and the Concat outputs.
 */
function denseBlock(layers: number, extra?: (g: GraphBuilder, concats: readonly string[]) => string): { model: InferredModel; concats: string[]; convs: string[] } {
  const g = new GraphBuilder('dense-block');
  const x = g.input('x', 'float32', [1, 16, 8, 8]);
  let c = g.node('Conv', [x, g.initializer('w0', 'float32', [64, 16, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'stem' });
  let channels = 64;
  const concats: string[] = [];
  const convs: string[] = [c];
  for (let k = 1; k <= layers; k++) {
    const w = g.initializer(`w${k}`, 'float32', [32, channels, 3, 3]);
    const y = g.node('Conv', [c, w], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: `conv${k}` });
    c = g.node('Concat', [c, y], { axis: 1 }, { name: `concat${k}` });
    convs.push(y);
    concats.push(c);
    channels += 32;
  }
  const last = extra === undefined ? c : extra(g, concats);
  const out = g.node('Conv', [last, g.initializer('wt', 'float32', [16, channels, 1, 1])], { kernel_shape: [1, 1] }, { name: 'transition' });
  g.output(out, 'float32', [1, 16, 8, 8]);
  return { model: inferShapes(decodeOnnx(g.toBytes()), {}), concats, convs };
}

/** Aliases as [child, parent, offset, rule] by name. */
function aliases(built: BuiltProblem): [string, string, number, string][] {
  const name = (id: number) => built.problem.buffers[id]!.name;
  return built.info.flatMap((info, id) => (info.alias ? [[name(id), name(info.alias.parent), info.alias.offset, info.alias.rule] as [string, string, number, string]] : []));
}

describe('nested Concat', () => {
  it('places each Concat output at the start of the next one, so the block shares one growing buffer', () => {
    const { model, concats, convs } = denseBlock(4);
    const built = buildProblem(model, presetTarget('cpu'), { place: placerOf(presetTarget('cpu')) });
    expect(built.diagnostics.filter((d) => d.code === 'concat-copy')).toEqual([]);
    // concat_k = [concat_(k-1) | conv_k]; the stem's output starts the first one
    const expected = concats.flatMap((c, k) => [
      [k === 0 ? convs[0]! : concats[k - 1]!, c, 0, 'concat'],
      [convs[k + 1]!, c, (64 + 32 * k) * BYTES_PER_CHANNEL, 'concat'],
    ]);
    expect(aliases(built).sort()).toEqual(expected.sort());
    for (const strategy of STRATEGY_NAMES) {
      const plan = assignOffsets(built.problem, strategy);
      expect(validatePlan(built.problem, plan).violations, strategy).toEqual([]);
    }
  });

  it('counts the shared buffer in the bound: the block costs its final size, not two copies at each Concat', () => {
    const { model } = denseBlock(4);
    const final = (64 + 4 * 32) * BYTES_PER_CHANNEL; // 49152: the last Concat's output
    const io = 16 * BYTES_PER_CHANNEL; // the transition's output, written while it reads the block
    // copying, the last Concat's step would hold its 40960-byte input, the 8192-byte Conv output and its output at once
    for (const strategy of STRATEGY_NAMES) {
      const plan = planModel(model, presetTarget('cpu'), { strategy, planOptions: { budgetMs: 100 } });
      expect(plan.valid, strategy).toBe(true);
      expect(plan.lowerBound, strategy).toBe(final + io);
      expect(plan.liveAtPeak.map((l) => l.name), strategy).toEqual(['concat4_out', 'transition_out']);
      if (strategy === 'naive') expect(plan.peak).toBeGreaterThanOrEqual(final + io);
      else expect(plan.peak, strategy).toBe(final + io);
    }
    const built = buildProblem(model, presetTarget('cpu'), { place: placerOf(presetTarget('cpu')) });
    expect(lowerBound(built.problem).lowerBound).toBe(final + io);
  });

  it('plans valid on every preset and strategy, with the bound below every peak', () => {
    const { model } = denseBlock(6);
    for (const preset of PRESET_NAMES) {
      for (const strategy of STRATEGY_NAMES) {
        const plan = planModel(model, presetTarget(preset), { strategy, planOptions: { budgetMs: 50 } });
        expect(plan.valid, `${preset} ${strategy}`).toBe(true);
        expect(plan.peak, `${preset} ${strategy}`).toBeGreaterThanOrEqual(plan.lowerBound);
      }
    }
  });

  it('copies an outer Concat whose inner Concat output already lies inside another Concat', () => {
    // concat2's input concat1 is also read by a second Concat with conv2's output
    const { model, concats } = denseBlock(2, (g, cs) => g.node('Concat', [cs[0]!, g.node('Relu', [cs[1]!], {}, { name: 'relu' })], { axis: 1 }, { name: 'again' }));
    const built = buildProblem(model, presetTarget('cpu'), { place: placerOf(presetTarget('cpu')) });
    const copy = built.diagnostics.find((d) => d.code === 'concat-copy');
    expect(copy?.node).toBe('again');
    expect(copy?.message).toMatch(new RegExp(`"${concats[0]}", the output of Concat 'concat1', already lies inside another buffer`));
    for (const strategy of STRATEGY_NAMES) expect(validatePlan(built.problem, assignOffsets(built.problem, strategy)).violations, strategy).toEqual([]);
  });

  it('keeps an inner Concat output read after the outer Concat from being overwritten in place', () => {
    // Relu reads concat1 after concat2 took it in: it may not write over concat1's bytes, which concat2 still holds
    const { model, concats } = denseBlock(2, (g, cs) => {
      const r = g.node('Relu', [cs[0]!], {}, { name: 'late-relu' });
      return g.node('Concat', [cs[1]!, r], { axis: 1 }, { name: 'tail' });
    });
    const built = buildProblem(model, presetTarget('cpu'), { place: placerOf(presetTarget('cpu')) });
    const relu = built.problem.buffers.find((b) => b.name === 'late-relu_out')!;
    expect(built.info[relu.id]!.alias?.rule).not.toBe('in-place');
    expect(aliases(built)).toContainEqual([concats[0]!, concats[1]!, 0, 'concat']);
    for (const strategy of STRATEGY_NAMES) expect(validatePlan(built.problem, assignOffsets(built.problem, strategy)).violations, strategy).toEqual([]);
  });
});
