import { describe, expect, it } from 'vitest';
import type { InferredModel } from '../../model/inferred';
import { convNet } from '../fusion/testing/conv-net';
import { quantizeNet } from '../fusion/testing/quantize-net';
import { planModel, type ModelPlan } from '../plan';
import { npuCpu, unitDoc } from '../testing/compute-units';
import { testTarget } from '../testing/tiny-graph';
import { listsOp, unitSupports } from './partition';

/** x [1,4,8,8] -> c1 (3×3) -> r1 Relu -> c2 (3×3) -> Softmax on the CPU: every float tensor 1 KiB. */
const net = () =>
  convNet([1, 4, 8, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).op('Relu', 'r1', 'c1').conv('c2', 'r1', { out: 4, k: 3, p: 1 }).op('Softmax', 's', 'c2').output('s').model();

/** The NPU lists only the float ops; quantize and dequantize for the conversions. */
const target = () => npuCpu(['Conv', 'Relu', 'QuantizeLinear', 'DequantizeLinear', 'Resize', 'Add']);

const unitOf = (plan: ModelPlan) => Object.fromEntries(plan.functions.flatMap((f) => f.nodes.map((n) => [n, f.unit])));
/** The memory tag of a tensor: its type and bytes. */
const tag = (plan: ModelPlan, tensor: string) => {
  const t = plan.tags!.tensors.find((x) => x.tensors.includes(tensor))!;
  return [t.dtype, t.tensorBytes];
};

describe('int8 compute units run the quantized forms of the ops they list', () => {
  const m: InferredModel = quantizeNet(net(), 'qlinear');
  const node = (name: string) => m.nodes.find((n) => n.name === name)!;
  const values = new Map(m.values.map((v) => [v.name, v]));
  const [npu, cpu] = target().computeUnits;

  it('QLinearConv runs where Conv is listed, on a quantized unit only', () => {
    expect(node('c1').opType).toBe('QLinearConv');
    expect([listsOp(npu!, node('c1'), values), unitSupports(npu!, node('c1'), values)]).toEqual([true, true]);
    const floatOnly = testTarget({ computeUnits: [unitDoc('gpu', ['Conv'], 'float16', 16), unitDoc('cpu', ['*'], 'float32', 16)] }).computeUnits[0]!;
    expect(listsOp(floatOnly, node('c1'), values)).toBe(false);
    expect(listsOp(cpu!, node('c1'), values)).toBe(true);
  });

  it('reads the kernel of QLinearConv from its weight input (the fourth), for the kernel constraint', () => {
    const small = testTarget({ computeUnits: [{ ...unitDoc('npu', ['Conv'], 'int8', 64, true), constraints: { maxConvKernel: 1 } }, unitDoc('cpu', ['*'], 'float32', 16)] });
    expect(unitSupports(small.computeUnits[0]!, node('c1'), values)).toBe(false);
  });

  it('com.microsoft QLinear ops, DynamicQuantizeLinear, Cast and Upsample run where their float op (or a conversion, or Resize) is listed', () => {
    const op = (opType: string, domain = '') => ({ name: opType, opType, domain, inputs: [], outputs: [], subgraphs: [], constant: false });
    const listed = ['QLinearAdd', 'QLinearMul', 'QLinearConcat'].map((o) => listsOp(npu!, op(o, 'com.microsoft'), values));
    expect(listed).toEqual([true, false, false]);
    expect(['DynamicQuantizeLinear', 'Cast', 'Upsample', 'MatMulInteger'].map((o) => listsOp(npu!, op(o), values))).toEqual([true, true, true, false]);
  });
});

describe('quantized models on an int8 NPU with a float CPU (M3)', () => {
  it('QDQ: the Q/DQ pairs fold on the NPU, every tensor there held as int8; the CPU gets a float copy', () => {
    const plan = planModel(quantizeNet(net(), 'qdq'), target());
    const units = unitOf(plan);
    expect(['x/quantize', 'c1/dequantize0', 'c1', 'c1/quantize', 'c2', 'c2/quantize'].map((n) => units[n])).toEqual(Array(6).fill('npu'));
    expect(units['s']).toBe('cpu');
    // a DequantizeLinear output on the NPU is its int8 input (QDQ); a Conv output only Q reads is int8 (fake quantization)
    expect([tag(plan, 'c1/dequantize0_out'), tag(plan, 'c1_out'), tag(plan, 'c1/quantize_out')]).toEqual([['int8', 256], ['int8', 256], ['int8', 256]]);
    const toCpu = plan.boundaries.find((b) => b.to.startsWith('cpu'))!;
    expect([toCpu.reason, toCpu.fromType, toCpu.toType, toCpu.bytes, toCpu.copyBytes]).toEqual(['type-mismatch', 'int8', 'float32', 256, 1024]);
  });

  it('QLinear: QLinearConv runs on the NPU on uint8 tensors; the dequantized result the CPU reads is a copied boundary', () => {
    const plan = planModel(quantizeNet(net(), 'qlinear'), target());
    expect(['x/quantize', 'c1', 'c2'].map((n) => unitOf(plan)[n])).toEqual(['npu', 'npu', 'npu']);
    expect([tag(plan, 'c1_out'), tag(plan, 'c2_out')]).toEqual([['uint8', 256], ['uint8', 256]]);
    // the DequantizeLinear before the Softmax runs on the NPU, which folds it (its uint8 input's type); the CPU reads float32
    const toCpu = plan.boundaries.find((b) => b.to.startsWith('cpu'))!;
    expect([toCpu.tensor, toCpu.reason, toCpu.fromType, toCpu.toType]).toEqual(['c2/dequantize_out', 'type-mismatch', 'uint8', 'float32']);
  });

  it('dynamic: DynamicQuantizeLinear, ConvInteger and Cast run on the NPU; tags show uint8 maps and int32 accumulators', () => {
    const plan = planModel(quantizeNet(net(), 'dynamic'), target());
    const units = unitOf(plan);
    expect(['x/dynamic-quantize', 'c1', 'c1/cast'].map((n) => units[n])).toEqual(['npu', 'npu', 'npu']);
    expect([tag(plan, 'x.u8'), tag(plan, 'c1_out'), tag(plan, 'x.u8scale'), tag(plan, 'x.u8zero')]).toEqual([
      ['uint8', 256],
      ['int32', 1024],
      ['int8', 1],
      ['uint8', 1],
    ]);
    // the float result of the Cast is stored in the NPU's int8 (the unit's type for float tensors)
    expect(tag(plan, 'c1/cast_out')).toEqual(['int8', 256]);
    expect(plan.tags!.tuples.find((t) => t.node === 'x/dynamic-quantize')!.elements).toHaveLength(3);
  });
});
