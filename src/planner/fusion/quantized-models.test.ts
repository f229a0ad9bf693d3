// The conv nets of ../shared/models quantized with the project's writer (QDQ,
// QLinear, dynamic) and planned on the accelerator preset (template fusion
// units, M2) and the phone preset (int8 NPU functions, M3; depthwise +
// pointwise units, M5). Skipped with a notice when the folder is absent.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredModel } from '../../model/inferred';
import { planModel } from '../plan';
import { presetTarget } from '../targets/presets';
import { baseOpOf, isConversion } from '../problem/quantized-ops';
import { scheduleGraph } from '../problem/schedule';
import { findFusionUnits } from './find-units';
import { expectFusedPlan } from './testing/expect-fused-plan';
import { quantizeNet, type QuantizedForm } from './testing/quantize-net';
import { checkUnits } from './tfu/check';

const MODELS = fileURLToPath(new URL('../../../../shared/models', import.meta.url));
const present = existsSync(MODELS);
if (!present) console.log(`quantized model tests skipped: ${MODELS} is absent`);

const NETS = ['FastestDet', 'ultraface_RFB-320', 'light_resnet50', 'light_inception_v1', 'light_vgg19', 'light_squeezenet', 'winml_SqueezeNet_fp16', 'winml_mnist'];
const FORMS: readonly QuantizedForm[] = ['qdq', 'qlinear', 'dynamic'];
/** Depthwise + pointwise blocks each depthwise net has (as models.test.ts counts them on the float model). */
const DW_PW_BLOCKS: Readonly<Record<string, number>> = { FastestDet: 22, 'ultraface_RFB-320': 18 };

const cache = new Map<string, InferredModel>();
/** The quantized model, once per file and form. */
function quantized(name: string, form: QuantizedForm): InferredModel {
  const key = `${name}:${form}`;
  if (!cache.has(key)) {
    const ir = decodeOnnx(new Uint8Array(readFileSync(join(MODELS, `${name}.onnx`))));
    cache.set(key, quantizeNet(inferShapes(ir, {}), form, ir));
  }
  return cache.get(key)!;
}

const cases = NETS.flatMap((name) => FORMS.map((form) => [name, form] as const));

describe.skipIf(!present)('quantized corpus on the accelerator preset: template fusion units', () => {
  const acc = presetTarget('accelerator');
  const s = acc.fusion!;

  it.each(cases)('%s, %s', (name, form) => {
    const m = quantized(name, form);
    expect(m.values.filter((v) => v.kind !== 'constant' && v.bytes === undefined).map((v) => v.name)).toEqual([]);
    const plan = planModel(m, acc);
    expectFusedPlan(plan, s);
    const order = scheduleGraph(m, acc.planning.order, acc.planning.graphIo).order;
    const found = findFusionUnits(m, order, acc)!;
    expect(checkUnits(m, found.units, s)).toEqual([]);
    // quantized main layers are in units: at least one ConvInteger or QLinearConv (or a QDQ Conv) is
    const fusedOps = new Set(found.units.flatMap((u) => u.nodeIndices.map((n) => m.nodes[n]!.opType)));
    expect(fusedOps.has({ qdq: 'Conv', qlinear: 'QLinearConv', dynamic: 'ConvInteger' }[form])).toBe(true);
    // every scheduled layer is explained: by its unit, or by the rule that kept it out
    expect(plan.fusionExplanations.map((e) => e.node)).toEqual(order.map((n) => m.nodes[n]!.name));
  });
});

describe.skipIf(!present)('quantized corpus on the phone preset: int8 NPU functions and depthwise + pointwise units', () => {
  const phone = presetTarget('phone');

  it.each(cases)('%s, %s', (name, form) => {
    const m = quantized(name, form);
    const plan = planModel(m, phone);
    expect(plan.valid).toBe(true);
    const unitOf = new Map(plan.functions.flatMap((f) => f.nodes.map((n) => [n, f.unit] as const)));
    const quantizedOps = m.nodes.filter((n) => !n.constant && (baseOpOf(n) === 'Conv' || isConversion(n)));
    expect(quantizedOps.length).toBeGreaterThan(0);
    for (const n of quantizedOps) expect([n.name, unitOf.get(n.name)]).toEqual([n.name, 'npu']);
    const blocks = DW_PW_BLOCKS[name];
    if (blocks !== undefined) {
      expect(plan.fusionUnits.filter((u) => u.kind === 'dw-pw')).toHaveLength(blocks);
      expect(plan.traffic.after).toBeLessThan(plan.traffic.before);
      expect(plan.buffers.filter((b) => b.kind === 'cache')).toHaveLength(blocks);
    }
  });
});
