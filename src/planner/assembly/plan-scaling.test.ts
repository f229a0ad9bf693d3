// Planning work grows linearly with the nodes of a chain (issue 17 item 4: a
// chain of 100k Relu nodes planned quadratically). Work is counted, not timed
// (testing/counted-work.ts). The same holds for thousands of buffers live at
// once (issue 13: best's scale path).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { GraphBuilder } from '../../model/testing/onnx-writer';
import { planModel } from '../plan';
import { DEFAULT_REGION, type PlacementProblem, type PlanResult } from '../problem/problem';
import { heavyNetworkProblem } from '../testing/instances-heavy';
import { assignOffsets } from './assign-offsets';
import { validatePlan } from './validate-plan';
import { presetTarget } from '../targets/presets';
import { WorkCounter } from '../testing/counted-work';
import { conflictTotal } from '../engine/degrees';
import { prepareRegion } from '../engine/prepared';
import { resolveAliasGroups } from '../problem/alias-groups';

/** Conflicts (summed over items) of the problem's one region. */
function conflictsOf(problem: PlacementProblem): number {
  return conflictTotal(prepareRegion(problem, DEFAULT_REGION, resolveAliasGroups(problem).groups));
}

/** x -> Relu -> Relu -> ... (n nodes) -> y, 256 bytes each. */
function reluChain(n: number): InferredModel {
  const g = new GraphBuilder('chain');
  let x = g.input('x', 'float32', [1, 64]);
  for (let i = 0; i < n; i++) x = g.node('Relu', [x]);
  g.output(x, 'float32', [1, 64]);
  return inferShapes(decodeOnnx(g.toBytes()), {});
}

/** x -> n parallel Relu -> one Concat of all of them: n buffers live at once. */
function reluFan(n: number): InferredModel {
  const g = new GraphBuilder('fan');
  const x = g.input('x', 'float32', [1, 4]);
  const outs = Array.from({ length: n }, () => g.node('Relu', [x]));
  g.output(g.node('Concat', outs, { axis: 0 }), 'float32', undefined);
  return inferShapes(decodeOnnx(g.toBytes()), {});
}

const counter = new WorkCounter();
const countedWork = (run: () => void) => counter.count(run);

describe('planning a chain of in-place nodes', () => {
  beforeAll(() => counter.start());
  afterAll(() => counter.stop());

  it('does about twice the work for twice the nodes (10k vs 20k Relu nodes)', async () => {
    const target = presetTarget('cpu');
    const small = reluChain(10_000);
    const large = reluChain(20_000);
    const plans: ReturnType<typeof planModel>[] = [];
    await countedWork(() => plans.push(planModel(reluChain(100), target, { suggest: true }))); // compiles the code paths once
    const work10k = await countedWork(() => plans.push(planModel(small, target, { suggest: true })));
    const work20k = await countedWork(() => plans.push(planModel(large, target, { suggest: true })));
    for (const plan of plans) {
      expect(plan.valid).toBe(true);
      expect(plan.peak).toBe(512); // the input, then every Relu in place in one 256-byte buffer
      expect(plan.lowerBound).toBe(512);
    }
    expect(work10k).toBeGreaterThan(100_000); // the counters did count
    expect(work20k / work10k).toBeLessThan(2.4); // quadratic work would give 4
  }, 120_000);

  it('does about twice the work for twice the buffers live at once (3k vs 6k parallel Relu nodes into a Concat)', async () => {
    const target = presetTarget('cpu');
    const small = reluFan(3_000);
    const large = reluFan(6_000);
    await countedWork(() => planModel(reluFan(50), target, { suggest: true }));
    const plans: ReturnType<typeof planModel>[] = [];
    const work3k = await countedWork(() => plans.push(planModel(small, target, { suggest: true })));
    const work6k = await countedWork(() => plans.push(planModel(large, target, { suggest: true })));
    for (const plan of plans) {
      expect(plan.valid).toBe(true);
      expect(plan.peak).toBeGreaterThanOrEqual(plan.lowerBound);
      // M1 places against every live placed buffer: beside thousands it is not run, and the plan says so.
      expect(plan.portfolio).toBeDefined();
      expect(plan.portfolio?.m1Peak).toBeUndefined();
    }
    expect(work3k).toBeGreaterThan(100_000);
    // Quadratic work gives 4; a gap search that scanned the live blocks when no gap is left gave 2.8.
    expect(work6k / work3k).toBeLessThan(2.3);
  }, 180_000);

  it('does about twice the work for twice the buffers of a crowded network-like trace (10k vs 20k, best)', async () => {
    // about 700 buffers live at once, skip connections live 500-5,000 steps: best takes the scale path;
    // on both of these no sweep reaches the bound, so best runs every sweep on both (a sweep that reaches it ends the path early)
    const small = heavyNetworkProblem(10_000, 4);
    const large = heavyNetworkProblem(20_000, 5);
    await countedWork(() => assignOffsets(heavyNetworkProblem(2_000, 3), 'best'));
    const plans: [PlacementProblem, PlanResult][] = [];
    const work10k = await countedWork(() => plans.push([small, assignOffsets(small, 'best')]));
    const work20k = await countedWork(() => plans.push([large, assignOffsets(large, 'best')]));
    for (const [problem, plan] of plans) {
      expect(validatePlan(problem, plan).valid).toBe(true);
      expect(plan.peak).toBeGreaterThanOrEqual(plan.lowerBound);
      expect(plan.peak).toBeLessThan(1.1 * plan.lowerBound);
    }
    expect(work10k).toBeGreaterThan(100_000);
    // best runs every baseline in full here, and each walks every conflict once (sorting each item's placed neighbours):
    // work linear in the conflicts, which grow a little faster than the buffers (the few live to the end meet every later one);
    // a pass quadratic in the buffers would give 4 or more
    const conflictGrowth = conflictsOf(large) / conflictsOf(small);
    expect(conflictGrowth).toBeLessThan(2.3);
    expect(work20k / work10k).toBeLessThan(1.2 * conflictGrowth);
  }, 180_000);
});
