// Fusion on the real TensorFlow Lite models of ../shared/models/tflite (skipped
// with a notice when the folder is absent): depthwise + pointwise units (M5)
// under the phone preset, template fusion units (M2) under the accelerator
// preset, each compared with what the same methods find on the model's NCHW
// ONNX twin, re-verified by the independent checker, and every plan
// re-validated with its lower bound at most its peak.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../model/decode-model';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredGraph, InferredModel } from '../../model/inferred';
import { planModel, type ModelPlan } from '../plan';
import { scheduleGraph } from '../problem/schedule';
import { presetTarget } from '../targets/presets';
import type { TargetProfile } from '../targets/target';
import { revalidatePlan } from '../testing/model-plan-check';
import { findFusionUnits } from './find-units';
import type { FusionUnitCore } from './fusion-types';
import { nchwTwin } from './testing/nchw-twin';
import { checkUnits } from './tfu/check';

const MODELS = fileURLToPath(new URL('../../../../shared/models/tflite', import.meta.url));
const present = existsSync(MODELS);
if (!present) console.log(`TFLite fusion model tests skipped: ${MODELS} is absent`);

const cache = new Map<string, InferredModel>();
/** The decoded and inferred model, once per file. */
function model(name: string): InferredModel {
  if (!cache.has(name)) cache.set(name, inferShapes(decodeModel(new Uint8Array(readFileSync(join(MODELS, `${name}.tflite`)))), {}));
  return cache.get(name)!;
}

const withoutFusion = (t: TargetProfile): TargetProfile => ({ ...t, fusion: { ...t.fusion!, enabled: false } });
const peakOf = (plan: ModelPlan, region: string) => plan.regions.find((r) => r.name === region)!.peak;
/** The activation region's alignment; on-chip plans (tiles, caches) are byte-aligned by design (fused-problem.ts). */
const alignments = (t: TargetProfile) => new Map([[t.planning.activationRegion!, t.regions.find((r) => r.name === t.planning.activationRegion)!.alignment]]);
/** A unit without its rule sentences, which name op types. */
const shapeOf = (u: FusionUnitCore) => ({ ...u, rules: u.rules.map((r) => r.rule), boundary: u.boundary.length });
/** The units of a graph as the fusion planners find them in the target's execution order. */
const unitsOf = (g: InferredGraph, t: TargetProfile) => findFusionUnits(g, scheduleGraph(g, t.planning.order, t.planning.graphIo).order, t)!.units;

/** A planned model, re-validated from its record, its lower bound at most its peak. */
function checkedPlan(m: InferredModel, t: TargetProfile): ModelPlan {
  const plan = planModel(m, t);
  expect(plan.valid).toBe(true);
  expect(revalidatePlan(plan, alignments(t)).violations).toEqual([]);
  expect(plan.lowerBound).toBeLessThanOrEqual(plan.peak);
  return plan;
}

/**
 * DEPTHWISE_CONV_2D of more than one channel, then a chain of single-reader
 * activations, whose only reader is a 1×1 stride-1 CONV_2D, from the graph
 * alone: [depthwise, pointwise].
 */
function dwPwPairs(m: InferredModel): [string, string][] {
  const values = new Map(m.values.map((v) => [v.name, v]));
  const chain = new Set(['RELU', 'RELU6', 'HARD_SWISH', 'LOGISTIC']);
  const pairs: [string, string][] = [];
  for (const node of m.nodes) {
    const channels = values.get(node.inputs[0]!)?.shape?.[3];
    if (node.opType !== 'DEPTHWISE_CONV_2D' || channels === undefined || channels < 2) continue;
    let out = values.get(node.outputs[0]!)!;
    while (out.consumers.length === 1 && chain.has(m.nodes[out.consumers[0]!]!.opType)) out = values.get(m.nodes[out.consumers[0]!]!.outputs[0]!)!;
    const reader = out.consumers.length === 1 ? m.nodes[out.consumers[0]!]! : undefined;
    const filter = reader === undefined ? undefined : values.get(reader.inputs[1]!)?.shape;
    const stride = [reader?.attributes?.stride_h, reader?.attributes?.stride_w];
    if (reader?.opType === 'CONV_2D' && filter?.[1] === 1 && filter[2] === 1 && stride.every((s) => s === 1)) pairs.push([node.name, reader.name]);
  }
  return pairs;
}

describe.skipIf(!present)('phone preset: depthwise + pointwise units (M5) on TFLite models', () => {
  const phone = presetTarget('phone');
  const capacity = phone.fusion!.dwPwCacheBytes!;

  it('tflm_person_detect: all 13 depthwise + pointwise pairs fused, as on its ONNX twin', () => {
    const m = model('tflm_person_detect');
    const pairs = dwPwPairs(m);
    expect(pairs).toHaveLength(13);
    const plan = checkedPlan(m, phone);
    expect(plan.fusionUnits.map((u) => [u.kind, u.nodes])).toEqual(pairs.map((p) => ['dw-pw', p]));
    for (const u of plan.fusionUnits) {
      const window = u.cache!;
      const [, h, w, c] = m.values.find((v) => v.name === u.internal[0])!.shape!;
      // int8 rows of W × C; the windows slide over every row
      expect([window.rowBytes, window.rows * window.rowBytes]).toEqual([w! * c!, window.bytes]);
      expect(window.bytes).toBeLessThanOrEqual(capacity);
      expect(window.rows * window.passes).toBeGreaterThanOrEqual(h!);
    }
    const units = unitsOf(m, phone);
    expect(checkUnits(m, units, phone.fusion!)).toEqual([]);
    expect(unitsOf(nchwTwin(m), phone).map(shapeOf)).toEqual(units.map(shapeOf));
    const off = checkedPlan(m, withoutFusion(phone));
    expect(peakOf(plan, 'dram')).toBeLessThanOrEqual(peakOf(off, 'dram'));
    expect(plan.traffic.after).toBeLessThan(off.traffic.after);
    expect(plan.buffers.filter((b) => b.kind === 'cache')).toHaveLength(13);
  });

  it('mediapipe_selfie_segmentation: the pairs whose depthwise result only the pointwise Conv reads', () => {
    const m = model('mediapipe_selfie_segmentation');
    const plan = checkedPlan(m, phone);
    // the squeeze-and-excite blocks read their depthwise result twice: those are left unfused, and said why
    expect(plan.fusionUnits.map((u) => u.nodes[0])).toEqual(dwPwPairs(m).map((p) => p[0]));
    expect(plan.fusionUnits.length).toBeGreaterThan(0);
    const reasons = plan.fusionExplanations.filter((e) => e.unit === undefined && e.reason.startsWith('not fused with a pointwise Conv'));
    expect(reasons.length).toBeGreaterThan(0);
    expect(checkUnits(m, unitsOf(m, phone), phone.fusion!)).toEqual([]);
  });
});

describe.skipIf(!present)('accelerator preset: template fusion units (M2) on TFLite models', () => {
  const acc = presetTarget('accelerator');
  const s = acc.fusion!;

  it.each(['tflm_person_detect', 'mediapipe_selfie_segmentation'])('%s: units within SRAM, NRAM and WRAM, verified by the checker', (name) => {
    const m = model(name);
    const plan = checkedPlan(m, acc);
    expect(plan.fusionUnits.length).toBeGreaterThan(0);
    expect(plan.traffic.after).toBeLessThan(plan.traffic.before);
    for (const u of plan.fusionUnits) {
      expect(u.kind).toBe('tfu');
      expect(u.onChip.sram).toBeLessThan(s.sramBytes);
      expect(u.onChip.nram).toBeLessThanOrEqual(s.nramBytes);
      expect(u.onChip.wram).toBeLessThanOrEqual(s.wramBytes);
    }
    const units = unitsOf(m, acc);
    expect(units.map((u) => u.nodes)).toEqual(plan.fusionUnits.map((u) => u.nodes));
    expect(checkUnits(m, units, s)).toEqual([]);
  });

  it('tflm_person_detect: the same units, tiles and on-chip plans as on its ONNX twin', () => {
    const m = model('tflm_person_detect');
    const units = unitsOf(m, acc);
    expect(units.length).toBe(7);
    expect(unitsOf(nchwTwin(m), acc).map(shapeOf)).toEqual(units.map(shapeOf));
  });
});
