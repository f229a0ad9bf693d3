// Fusion on the real models of ../shared/models (skipped with a notice when
// the folder is absent): template fusion units under the accelerator preset,
// depthwise + pointwise units under the phone preset.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { planModel, type ModelPlan } from '../plan';
import { presetTarget } from '../targets/presets';
import { scheduleGraph } from '../problem/schedule';
import type { TargetProfile } from '../targets/target';
import { findFusionUnits } from './find-units';
import { expectFusedPlan } from './testing/expect-fused-plan';
import { checkUnits } from './tfu/check';

const MODELS = fileURLToPath(new URL('../../../../shared/models', import.meta.url));
const present = existsSync(MODELS);
if (!present) console.log(`fusion model tests skipped: ${MODELS} is absent`);

const cache = new Map<string, InferredModel>();
/** The decoded and inferred model, once per file. */
function model(name: string): InferredModel {
  if (!cache.has(name)) cache.set(name, inferShapes(decodeOnnx(new Uint8Array(readFileSync(join(MODELS, `${name}.onnx`)))), {}));
  return cache.get(name)!;
}

const withoutFusion = (t: TargetProfile): TargetProfile => ({ ...t, fusion: { ...t.fusion!, enabled: false } });
const peakOf = (plan: ModelPlan, region: string) => plan.regions.find((r) => r.name === region)!.peak;

describe.skipIf(!present)('accelerator preset: template fusion units on real models', () => {
  const acc = presetTarget('accelerator');
  const s = acc.fusion!;

  it.each(['FastestDet', 'ultraface_RFB-320', 'light_resnet50', 'light_inception_v1', 'light_vgg19', 'winml_mnist'])('%s', (name) => {
    const m = model(name);
    const plan = planModel(m, acc);
    expectFusedPlan(plan, s);
    expect(plan.fusionUnits.map((u) => u.kind)).toEqual(plan.fusionUnits.map(() => 'tfu'));
    expect(peakOf(plan, 'sram')).toBeLessThan(s.sramBytes);
    // the independent checker re-verifies every enabled rule on the same units
    const found = findFusionUnits(m, scheduleGraph(m, acc.planning.order, acc.planning.graphIo).order, acc)!;
    expect(found.units.map((u) => u.nodes)).toEqual(plan.fusionUnits.map((u) => u.nodes));
    expect(checkUnits(m, found.units, s)).toEqual([]);
    // every layer of every unit is explained by its unit
    const explained = new Map(plan.fusionExplanations.map((e) => [e.node, e.unit]));
    for (const u of plan.fusionUnits) for (const n of u.nodes) expect(explained.get(n)).toBe(u.name);
  });
});

/** Depthwise Conv -> single-reader element-wise chain -> 1×1 Conv, found from the graph alone: [depthwise, pointwise] names. */
function dwPwBlocks(m: InferredModel): [string, string][] {
  const values = new Map(m.values.map((v) => [v.name, v]));
  const chain = new Set(['Relu', 'Clip', 'BatchNormalization', 'Add', 'Mul', 'HardSwish', 'Sigmoid']);
  const blocks: [string, string][] = [];
  for (const node of m.nodes) {
    const channels = values.get(node.inputs[0]!)?.shape?.[1];
    if (node.opType !== 'Conv' || channels === undefined || channels < 2 || node.attributes?.group !== channels) continue;
    let out = values.get(node.outputs[0]!)!;
    while (out.consumers.length === 1 && chain.has(m.nodes[out.consumers[0]!]!.opType)) out = values.get(m.nodes[out.consumers[0]!]!.outputs[0]!)!;
    const reader = out.consumers.length === 1 ? m.nodes[out.consumers[0]!]! : undefined;
    const kernel = reader === undefined ? undefined : values.get(reader.inputs[1]!)?.shape;
    if (reader?.opType === 'Conv' && kernel?.[2] === 1 && kernel[3] === 1) blocks.push([node.name, reader.name]);
  }
  return blocks;
}

describe.skipIf(!present)('phone preset: depthwise + pointwise units on real models', () => {
  const phone = presetTarget('phone');
  const capacity = phone.fusion!.dwPwCacheBytes!;

  it.each([
    ['FastestDet', 22],
    ['ultraface_RFB-320', 18],
  ] as const)('%s: all %i blocks fused, windows within the cache, the DRAM peak not higher', (name, count) => {
    const m = model(name);
    const plan = planModel(m, phone);
    const off = planModel(m, withoutFusion(phone));
    expect(plan.valid).toBe(true);
    const blocks = dwPwBlocks(m);
    expect(blocks).toHaveLength(count);
    for (const [dw, pw] of blocks) {
      const unit = plan.fusionUnits.find((u) => u.nodes[0] === dw);
      expect(unit?.kind, `${dw} -> ${pw}`).toBe('dw-pw');
      expect(unit!.nodes[unit!.nodes.length - 1]).toBe(pw);
      const window = unit!.cache!;
      expect(window.bytes).toBeLessThanOrEqual(capacity);
      expect(window.rows * window.rowBytes).toBe(window.bytes);
      const height = m.values.find((v) => v.name === unit!.internal[0])!.shape![2]!;
      expect(window.rows * window.passes).toBeGreaterThanOrEqual(height);
    }
    expect(peakOf(plan, 'dram')).toBeLessThanOrEqual(peakOf(off, 'dram'));
    expect(plan.traffic.after).toBeLessThan(off.traffic.after);
    expect(plan.buffers.filter((b) => b.kind === 'cache')).toHaveLength(plan.fusionUnits.length);
  });
});
