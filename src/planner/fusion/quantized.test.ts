import { describe, expect, it } from 'vitest';
import type { InferredModel } from '../../model/inferred';
import { planModel, type ModelPlan } from '../plan';
import { scheduleGraph } from '../problem/schedule';
import { type TargetProfile } from '../targets/target';
import { findFusionUnits } from './find-units';
import { graphLayers } from './layer-geometry';
import { convNet, fusionTarget, reluChain, residualNet } from './testing/conv-net';
import { quantizeNet, type QuantizedForm } from './testing/quantize-net';
import { checkUnits } from './tfu/check';
import { unitRanges } from './unit-ranges';

/** The plan, after the independent checker has passed every unit the planner found. */
function checkedPlan(m: InferredModel, t: TargetProfile): ModelPlan {
  const found = findFusionUnits(m, scheduleGraph(m, t.planning.order, t.planning.graphIo).order, t)!;
  expect(checkUnits(m, found.units, t.fusion!)).toEqual([]);
  const plan = planModel(m, t);
  expect(plan.valid).toBe(true);
  expect(plan.fusionUnits.map((u) => u.nodes)).toEqual(found.units.map((u) => u.nodes));
  return plan;
}

const sramSizes = (plan: ModelPlan) => Object.fromEntries(plan.buffers.filter((b) => b.region === 'sram').map((b) => [b.name, b.size]));
const FORMS: readonly QuantizedForm[] = ['qdq', 'qlinear', 'dynamic'];

/** x [1,4,8,8] -> c1 (3×3) -> r1 Relu -> c2 (3×3): every float tensor 1 KiB. */
const chain = () => reluChain().model();

describe('template fusion units of a quantized conv chain', () => {
  it('QDQ: DequantizeLinear -> Conv -> QuantizeLinear layers fuse, every tensor on chip held as int8 (256 B, not 1 KiB)', () => {
    const plan = checkedPlan(quantizeNet(chain(), 'qdq'), fusionTarget({}));
    expect(plan.fusionUnits.map((u) => [u.nodes, u.mode, u.onChip])).toEqual([
      [['x/quantize', 'c1/dequantize0', 'c1', 'c1/quantize', 'c2/dequantize0', 'c2', 'c2/quantize', 'c2/dequantize'], 'small-map', { sram: 1280, nram: 1280, wram: 318 }],
    ]);
    // the Relu folded into c1's quantization; int8 weights: 2 × 144 B, six scale + zero-point pairs of 5 B
    expect(sramSizes(plan)).toEqual({
      'x/quantize_out': 256, 'c1/dequantize0_out': 256, c1_out: 256, 'c1/quantize_out': 256,
      'c2/dequantize0_out': 256, c2_out: 256, 'c2/quantize_out': 256, 'tfu0:x': 1024, 'tfu0:c2': 1024,
    });
    // before: x and c2 (host and unit, 4 × 1 KiB), the int8 tensors (3 × 2 × 256 B) and the float ones (4 × 2 × 1 KiB)
    expect(plan.traffic).toEqual({ before: 13824, after: 4096 });
  });

  it('QLinear: QuantizeLinear -> QLinearConv -> QLinearConv -> DequantizeLinear fuse on uint8 tiles', () => {
    const plan = checkedPlan(quantizeNet(chain(), 'qlinear'), fusionTarget({}));
    expect(plan.fusionUnits.map((u) => [u.nodes, u.onChip, u.internal])).toEqual([
      [['x/quantize', 'c1', 'c2', 'c2/dequantize'], { sram: 1280, nram: 1280, wram: 328 }, ['x/quantize_out', 'c1_out', 'c2_out']],
    ]);
    expect(plan.traffic).toEqual({ before: 5632, after: 4096 });
  });

  it('dynamic: DynamicQuantizeLinear -> ConvInteger (int32) -> Cast -> scale Mul fuse, the scale products riding along', () => {
    const plan = checkedPlan(quantizeNet(chain(), 'dynamic'), fusionTarget({}));
    expect(plan.fusionUnits[0]!.nodes).toEqual([
      'x/dynamic-quantize', 'c1', 'c1/cast', 'c1/scales', 'c1/scale', 'r1', 'r1/dynamic-quantize', 'c2', 'c2/cast', 'c2/scales', 'c2/scale',
    ]);
    const sizes = sramSizes(plan);
    // int32 accumulators, uint8 quantized maps, a Relu only a quantizer reads held as uint8, 4-byte scales
    expect([sizes['c1_out'], sizes['x.u8'], sizes['r1'], sizes['c1'], sizes['x.u8scale'], sizes['c1/scales_out']]).toEqual([1024, 256, 256, 1024, 4, 4]);
    expect(plan.fusionUnits[0]!.onChip.sram).toBe(2056);
    expect(plan.traffic).toEqual({ before: 17444, after: 4096 });
  });

  it('every layer of each quantized chain is in its unit and explained by it', () => {
    for (const form of FORMS) {
      const plan = planModel(quantizeNet(chain(), form), fusionTarget({}));
      expect(plan.fusionExplanations.every((e) => e.unit === 'tfu0'), form).toBe(true);
    }
  });
});

describe('a quantized residual block', () => {
  it.each(FORMS)('%s: fuses whole, the block excusing its stride redundancy, and passes the checker', (form) => {
    const m = quantizeNet(residualNet().model(), form);
    const plan = checkedPlan(m, fusionTarget({ rules: { preferBlocks: true } }));
    expect(plan.fusionUnits).toHaveLength(1);
    const unit = plan.fusionUnits[0]!;
    expect(unit.nodes).toEqual(m.nodes.filter((n) => !n.constant).map((n) => n.name));
    expect(unit.rules).toContain('stride-redundancy: kernel - stride sums H 6, W 6 > 4, allowed: a whole block is inside');
    expect(plan.traffic.after).toBe(4096);
  });
});

describe('depthwise + pointwise units of quantized blocks (M5)', () => {
  /** x [1,8,16,16] -> dw (3×3) -> relu -> pw (1×1, 16 out): a float row of the depthwise result is 512 B. */
  const block = () => convNet([1, 8, 16, 16]).dw('dw', 'x').op('Relu', 'relu', 'dw').conv('pw', 'relu', { out: 16 }).output('pw').model();
  const dwTarget = () => fusionTarget({ templateUnits: false, dwPwCacheBytes: 2048 });

  it('QDQ: the DequantizeLinear before and the QuantizeLinear after join; int8 rows of 128 B fill the cache in one pass', () => {
    const plan = checkedPlan(quantizeNet(block(), 'qdq'), dwTarget());
    expect(plan.fusionUnits.map((u) => [u.nodes, u.cache, u.inputs, u.output])).toEqual([
      [
        ['dw/dequantize0', 'dw', 'dw/quantize', 'pw/dequantize0', 'pw', 'pw/quantize'],
        { capacity: 2048, rowBytes: 128, rows: 16, bytes: 2048, passes: 1 },
        ['x/quantize_out'],
        'pw/quantize_out',
      ],
    ]);
    // it reads the int8 input (2 KiB) and writes the int8 result (4 KiB)
    expect(plan.fusionUnits[0]!.traffic.after).toBe(6144);
    expect(plan.fusionExplanations.map((e) => e.reason)).toEqual([
      "dequantizes the input 'x/quantize_out' of dwpw0 as its depthwise Conv reads it: 'dw/dequantize0_out' never reaches DRAM",
      "depthwise Conv of dwpw0: its result 'dw_out' never reaches DRAM, a 2.00 KiB cache window of 16 row(s), slid in 1 pass(es) holds it",
      'element-wise op of the depthwise module of dwpw0: runs in place in the cache',
      'element-wise op of the depthwise module of dwpw0: runs in place in the cache',
      "pointwise Conv of dwpw0: reads the depthwise result from the cache, writes 'pw_out' to its QuantizeLinear",
      "quantizes the pointwise result of dwpw0 as it is written: writes 'pw/quantize_out' to DRAM",
    ]);
  });

  it('QLinear: QLinearConv depthwise + pointwise on uint8 rows', () => {
    const plan = checkedPlan(quantizeNet(block(), 'qlinear'), dwTarget());
    expect(plan.fusionUnits.map((u) => [u.nodes, u.cache!.rowBytes, u.traffic])).toEqual([[['dw', 'pw'], 128, { before: 10240, after: 6144 }]]);
  });

  it('dynamic: ConvInteger rows are int32 (512 B); the scale product between the Convs runs inside the fused operator', () => {
    const plan = checkedPlan(quantizeNet(block(), 'dynamic'), dwTarget());
    const unit = plan.fusionUnits[0]!;
    expect([unit.nodes, unit.cache!.rowBytes, unit.cache!.passes]).toEqual([['dw', 'dw/cast', 'dw/scales', 'dw/scale', 'relu', 'relu/dynamic-quantize', 'pw'], 512, 4]);
    expect(unit.internal).toEqual(['dw_out', 'dw/cast_out', 'dw', 'relu', 'relu.u8']);
    expect(plan.fusionExplanations.find((e) => e.node === 'dw/scales')!.reason).toBe(
      "scalar side computation of dwpw0: the fused operator computes 'dw/scales_out' (a scale or zero point) as it runs",
    );
    expect(unit.trafficSaved).toBeGreaterThan(0);
  });
});

describe('Resize and Upsample tile with their halo', () => {
  /** c1 (3×3) -> up (Resize ×2) -> c2 (3×3) on a 16×16 map, SRAM small enough for row tiles. */
  const net = (attributes: Record<string, string>) =>
    convNet([1, 4, 16, 16]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).resize('up', 'c1', 2, attributes).conv('c2', 'up', { out: 4, k: 3, p: 1 }).output('c2').model();
  const tight = () => fusionTarget({ sramBytes: 9000, rules: { redundancyPercent: 1000 } });
  const modes: readonly (readonly [string, Record<string, string>])[] = [
    ['nearest, half_pixel', {}],
    ['nearest, asymmetric, floor', { coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' }],
    ['nearest, align_corners', { coordinate_transformation_mode: 'align_corners' }],
    ['nearest, asymmetric, ceil', { coordinate_transformation_mode: 'asymmetric', nearest_mode: 'ceil' }],
    ['linear, half_pixel', { mode: 'linear' }],
    ['linear, align_corners', { mode: 'linear', coordinate_transformation_mode: 'align_corners' }],
  ];

  it.each(modes)('%s: one unit over the Resize in row tiles, its tiles as large as the checker’s exact row sets need', (_, attributes) => {
    for (const m of [net(attributes), quantizeNet(net(attributes), 'qdq'), quantizeNet(net(attributes), 'qlinear')]) {
      const plan = checkedPlan(m, tight());
      expect(plan.fusionUnits).toHaveLength(1);
      expect(plan.fusionUnits[0]!.nodes).toContain('up');
      expect(plan.fusionUnits[0]!.mode).toBe('large-map');
    }
  });

  it('an exact nearest mode reads floor(r / 2), a linear one a row more on each side', () => {
    const ranges = (attributes: Record<string, string>) => {
      const g = net(attributes);
      const layers = graphLayers(g);
      const value = (name: string) => g.values.find((v) => v.name === name)!;
      const unit = { layers, inputs: [value('x')], output: value('c2'), internal: [value('c1'), value('up')] };
      return Object.fromEntries(unitRanges(unit, 2, 8, 16));
    };
    // output rows [8, 16) of c2 read rows [7, 17) of up (3×3, pad 1)
    expect(ranges({})).toEqual({ c2: [8, 16], up: [7, 17], c1: [3, 9], x: [2, 10] });
    expect(ranges({ coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' })).toEqual({ c2: [8, 16], up: [7, 17], c1: [3, 9], x: [2, 10] });
    expect(ranges({ mode: 'linear' })).toEqual({ c2: [8, 16], up: [7, 17], c1: [2, 10], x: [1, 11] });
  });

  it('says why a Resize it cannot tile is left out', () => {
    const cubic = planModel(net({ mode: 'cubic' }), fusionTarget({}));
    expect(cubic.fusionExplanations.find((e) => e.node === 'up')!.reason).toBe("cannot be in a unit: Resize mode 'cubic' has no tiling rule (nearest and linear only)");
    const odd = convNet([1, 4, 6, 6]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).node('Resize', 'up', ['c1'], [1, 4, 9, 9]).conv('c2', 'up', { out: 4, k: 3, p: 1 }).output('c2').model();
    expect(planModel(odd, fusionTarget({})).fusionExplanations.find((e) => e.node === 'up')!.reason).toBe(
      'cannot be in a unit: Resize scales H by 1.5: only integer factors tile',
    );
  });
});

describe('quantized layers left out of units say which rule kept them out', () => {
  /** c1 (3×3) -> c2 (3×3) -> Flatten -> MatMul: the classifier head has no feature-map tiling rule. */
  const head = () =>
    convNet([1, 4, 8, 8])
      .conv('c1', 'x', { out: 4, k: 3, p: 1 })
      .conv('c2', 'c1', { out: 4, k: 3, p: 1 })
      .node('Flatten', 'f', ['c2'], [1, 256])
      .constant('m.w', [256, 10])
      .node('MatMul', 'm', ['f', 'm.w'], [1, 10])
      .output('m')
      .model();

  it.each([
    ['qlinear', 'QLinearMatMul'],
    ['dynamic', 'MatMulInteger'],
  ] as const)('%s: %s is a MatMul, which has no feature-map tiling rule, in the words the float model gets', (form, op) => {
    const plan = planModel(quantizeNet(head(), form), fusionTarget({}));
    expect(plan.fusionUnits.map((u) => u.nodes.filter((n) => n === 'c1' || n === 'c2'))).toEqual([['c1', 'c2']]);
    expect(plan.fusionExplanations.find((e) => e.node === 'm')!.reason).toBe(`cannot be in a unit: ${op} has no feature-map tiling rule`);
    expect(plan.fusionExplanations.find((e) => e.node === 'f')!.reason).toBe('cannot be in a unit: Flatten has no feature-map tiling rule');
    const float = planModel(head(), fusionTarget({}));
    expect(float.fusionExplanations.find((e) => e.node === 'm')!.reason).toBe('cannot be in a unit: MatMul has no feature-map tiling rule');
  });
});
