// Suggestions and fusion on long chains do work linear in nodes (issue 17):
// twice the nodes, about twice the counted work (testing/counted-work.ts), and
// on a chain every changed setting is settled without placing it again (a
// chain has one order; the bound of a changed problem shows no saving).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { buildStage } from '../assembly/stages';
import { findBlocks } from '../fusion/blocks';
import { findFusionUnits } from '../fusion/find-units';
import { planModel, planWithSuggestionSteps } from '../plan';
import { scheduleGraph } from '../problem/schedule';
import { presetTarget } from '../targets/presets';
import { WorkCounter } from '../testing/counted-work';
import { replannedPeak, type ReplanOutcome } from './setting-replan';
import { applyTargetChange, ORDER_POLICIES } from './target-change';

/** A chain of about `n` nodes: Conv 3x3 -> Relu pairs, or residual blocks Conv -> Relu -> Conv -> Add(skip) -> Relu; each Conv with its own weights. */
function convChain(n: number, residual: boolean): InferredModel {
  const g = new GraphBuilder('chain');
  let x = g.input('x', 'float32', [1, 4, 8, 8]);
  let w = 0;
  const conv = (from: string) => g.node('Conv', [from, g.initializer(`w${w++}`, 'float32', [4, 4, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] });
  for (let nodes = 0; nodes < n; nodes += residual ? 5 : 2) {
    x = residual ? g.node('Relu', [g.node('Add', [conv(g.node('Relu', [conv(x)])), x])]) : g.node('Relu', [conv(x)]);
  }
  g.output(x, 'float32', [1, 4, 8, 8]);
  return inferShapes(decodeOnnx(g.toBytes()), {});
}

const counter = new WorkCounter();

/** Work of `run` on the small and the large model, after a warm-up on a tiny one. */
async function workOf<T>(tiny: T, small: T, large: T, run: (input: T) => void): Promise<[number, number]> {
  await counter.count(() => run(tiny));
  return [await counter.count(() => run(small)), await counter.count(() => run(large))];
}

describe('suggestions and fusion on long chains', () => {
  beforeAll(() => counter.start());
  afterAll(() => counter.stop());

  it.each(['cpu', 'mcu', 'phone'])('%s: every changed setting of a residual chain is settled without placing it', (name) => {
    const model = convChain(400, true);
    const target = presetTarget(name);
    const plan = planModel(model, target, { suggest: true });
    expect(plan.valid).toBe(true);
    const strategy = target.planning.strategy;
    const stage = buildStage(model, target, { strategy });
    const outcomes: ReplanOutcome[] = [];
    for (const order of ORDER_POLICIES.filter((o) => o !== target.planning.order)) {
      const change = { order };
      expect(replannedPeak({ model, target, strategy, stage, peak: plan.peak }, applyTargetChange(target, change), undefined, change, (o) => outcomes.push(o))).toBeUndefined();
      // the order is indeed the plan's: planning with it gives the same peak
      expect(planModel(model, applyTargetChange(target, change)).peak).toBe(plan.peak);
    }
    expect(outcomes.every((o) => o === 'same-order')).toBe(true);
    expect(outcomes.length).toBe(ORDER_POLICIES.length - 1);
  });

  it('a setting that can save is placed, and its peak is the plan\'s with the setting', () => {
    const model = convChain(60, false);
    const target = presetTarget('cpu');
    const plan = planModel(model, target, { strategy: 'naive' });
    const stage = buildStage(model, target, { strategy: 'naive' });
    const outcomes: ReplanOutcome[] = [];
    const peak = replannedPeak({ model, target, strategy: 'naive', stage, peak: plan.peak }, target, 'best', {}, (o) => outcomes.push(o))?.peak;
    expect(outcomes).toEqual(['placed']);
    expect(peak).toBe(planModel(model, target, { strategy: 'best' }).peak);
    expect(peak).toBeLessThan(plan.peak);
  });

  it.each(['cpu', 'mcu', 'accelerator', 'phone'])('%s: suggestions do about twice the work for twice the nodes (2k vs 4k nodes)', async (name) => {
    const target = presetTarget(name);
    const models = [convChain(100, true), convChain(2_000, true), convChain(4_000, true)] as const;
    const steps = models.map((m) => planWithSuggestionSteps(m, target).steps);
    const [small, large] = await workOf(steps[0]!, steps[1]!, steps[2]!, (s) => {
      for (const step of s) step.run();
    });
    expect(small).toBeGreaterThan(10_000); // the counters did count
    expect(large / small).toBeLessThan(2.4); // quadratic work would give 4
  }, 120_000);

  it('fusion finds blocks and units with about twice the work for twice the nodes (accelerator, 4k vs 8k nodes)', async () => {
    const target = presetTarget('accelerator');
    const withOrder = (m: InferredModel) => ({ m, order: scheduleGraph(m, target.planning.order, target.planning.graphIo).order });
    const pairs = withOrder(convChain(2_000, false));
    const [small, large] = await workOf(withOrder(convChain(100, false)), pairs, withOrder(convChain(4_000, false)), ({ m, order }) => findFusionUnits(m, order, target));
    expect(large / small).toBeLessThan(2.4);
    // A residual chain of tiny maps would fuse into one unit of thousands of layers as long as WRAM allows: units stop at 128.
    const chained = [withOrder(convChain(100, true)), withOrder(convChain(2_000, true)), withOrder(convChain(4_000, true))] as const;
    const units = findFusionUnits(chained[1].m, chained[1].order, target)!.units;
    expect(Math.max(...units.map((u) => u.lastStep - u.firstStep + 1))).toBeLessThanOrEqual(128);
    expect(units.length).toBeGreaterThan(10);
    const [units2k, units4k] = await workOf(chained[0], chained[1], chained[2], ({ m, order }) => findFusionUnits(m, order, target));
    expect(units4k / units2k).toBeLessThan(2.4);
    const residual = [withOrder(convChain(100, true)), withOrder(convChain(4_000, true)), withOrder(convChain(8_000, true))] as const;
    const found = findBlocks(residual[1].m, residual[1].order);
    expect(found.length).toBeGreaterThan(700); // a block per residual block, and more inside
    const [blocks4k, blocks8k] = await workOf(residual[0], residual[1], residual[2], ({ m, order }) => findBlocks(m, order));
    expect(blocks8k / blocks4k).toBeLessThan(2.4);
  }, 120_000);
});
