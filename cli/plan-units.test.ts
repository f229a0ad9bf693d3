import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../src/model/testing/onnx-writer';
import { convNet } from '../src/planner/fusion/testing/conv-net';
import { quantizedBytes } from '../src/planner/fusion/testing/quantize-net';
import { presetTarget } from '../src/planner/targets/presets';
import { run } from './testing/run-cli';

const MODEL = join(__dirname, '../../shared/models/ultraface_RFB-320.onnx');
const hasModel = existsSync(MODEL);
if (!hasModel) console.log(`notice: ${MODEL} is absent; the compute-unit plan of a real model from the CLI is skipped`);

interface FunctionJson {
  readonly name: string;
  readonly unit: string;
  readonly nodes: readonly string[];
  readonly copies: readonly string[];
}
interface BoundaryJson {
  readonly tensor: string;
  readonly from: string;
  readonly to: string;
  readonly shared: boolean;
  readonly reason: string;
  readonly detail: string;
  readonly copy?: string;
}

function planJson(argv: string[]) {
  const { code, out, err } = run(['plan', ...argv, '--json']);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as {
    valid: boolean;
    target: string;
    functions: FunctionJson[];
    boundaries: BoundaryJson[];
    buffers: { name: string; kind: string; size: number }[];
    steps: { node: string }[];
    units: { name: string; functions: number }[];
    tags: { tensors: { tensors: string[]; reuseCount: number }[] };
  };
}

function targetFile(profile: object): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-units-')), 'units.json');
  writeFileSync(path, JSON.stringify(profile));
  return path;
}

describe.skipIf(!hasModel)('heapscope plan --target phone (compute units, M3)', () => {
  it('reports the functions and every boundary decision of a real model', () => {
    const plan = planJson([MODEL, '--target', 'phone']);
    expect([plan.valid, plan.target]).toEqual([true, 'phone']);

    // functions: each on a unit of the preset, together running every node of the model once
    expect(new Set(plan.functions.map((f) => f.unit))).toEqual(new Set(['npu', 'cpu']));
    const copyNodes = plan.functions.flatMap((f) => f.copies);
    const modelNodes = plan.steps.map((s) => s.node).filter((n) => !copyNodes.includes(n));
    expect(plan.functions.flatMap((f) => f.nodes).sort()).toEqual(modelNodes.sort());
    for (const f of plan.functions) expect(f.nodes.length).toBeGreaterThan(0);
    expect(plan.units.map((u) => [u.name, u.functions])).toEqual([
      ['npu', plan.functions.filter((f) => f.unit === 'npu').length],
      ['cpu', plan.functions.filter((f) => f.unit === 'cpu').length],
    ]);

    // boundaries: shared, or copied for a reason into a 'copy' buffer the reading function runs
    expect(plan.boundaries.length).toBeGreaterThan(0);
    const names = new Set(plan.functions.map((f) => f.name));
    for (const b of plan.boundaries) {
      expect(names.has(b.to)).toBe(true);
      expect(b.from === 'model' || names.has(b.from)).toBe(true);
      if (b.shared) {
        expect([b.reason, b.copy]).toEqual(['compatible', undefined]);
        continue;
      }
      expect(['type-mismatch', 'alignment', 'read-later', 'layout']).toContain(b.reason);
      expect(plan.buffers.find((x) => x.name === b.copy)?.kind).toBe('copy');
      expect(plan.functions.find((f) => f.name === b.to)!.copies).toContain(`copy:${b.copy}`);
    }
    // an int8 NPU next to a float32 CPU: most boundaries need a copy for the type; some tensors pass
    // between functions of one unit and are shared
    const reasons = new Set(plan.boundaries.map((b) => b.reason));
    expect(reasons).toContain('type-mismatch');
    expect(reasons).toContain('compatible');
    for (const b of plan.boundaries.filter((x) => x.reason === 'type-mismatch')) expect(b.detail).toMatch(/stores (int8|float32), \w+ reads (int8|float32)/);

    // a shared boundary tensor's tag counts the reading function's reuse
    const shared = plan.boundaries.find((b) => b.shared)!;
    expect(plan.tags.tensors.find((t) => t.tensors.includes(shared.tensor))!.reuseCount).toBeGreaterThanOrEqual(2);
  });

  it('shares the boundaries where a profile gives both units the same type and alignment', () => {
    const phone = presetTarget('phone');
    const profile = {
      ...phone,
      name: 'same-format',
      computeUnits: phone.computeUnits.map((u) => ({ ...u, dtype: { activations: 'model', fakeQuantization: false }, alignment: 64 })),
    };
    const plan = planJson([MODEL, '--target', targetFile(profile)]);
    expect(plan.target).toBe('same-format');
    expect(plan.boundaries.length).toBeGreaterThan(0);
    const reasons = new Set(plan.boundaries.map((b) => b.reason));
    expect(reasons.has('type-mismatch') || reasons.has('alignment')).toBe(false);
    expect(plan.boundaries.filter((b) => b.shared).length).toBeGreaterThan(plan.boundaries.length / 2);
    const phonePlan = planJson([MODEL, '--target', 'phone']);
    expect(plan.boundaries.map((b) => b.tensor)).toEqual(phonePlan.boundaries.map((b) => b.tensor));
  });
});

/**
 * A QDQ network written as a real ONNX file: x -> Q -> DQ -> Conv 3x3 -> Q -> DQ -> Conv 9x9 -> y,
 * 1x4x16x16 activations (1024 elements each). The NPU takes everything but the 9x9 Conv.
 */
function qdqModel(): string {
  const g = new GraphBuilder('qdq');
  const x = g.input('x', 'float32', [1, 4, 16, 16]);
  const scale = g.initializer('scale', 'float32', [], [0.05]);
  const zero = g.initializer('zero', 'uint8', [], [128]);
  const q = g.node('QuantizeLinear', [x, scale, zero], {}, { name: 'q' });
  const d = g.node('DequantizeLinear', [q, scale, zero], {}, { name: 'dq' });
  const c = g.node('Conv', [d, g.initializer('w3', 'float32', [4, 4, 3, 3])], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }, { name: 'conv3' });
  const q2 = g.node('QuantizeLinear', [c, scale, zero], {}, { name: 'q2' });
  const d2 = g.node('DequantizeLinear', [q2, scale, zero], {}, { name: 'dq2' });
  const y = g.node('Conv', [d2, g.initializer('w9', 'float32', [4, 4, 9, 9])], { kernel_shape: [9, 9], pads: [4, 4, 4, 4] }, { name: 'conv9' });
  g.output(y, 'float32', [1, 4, 16, 16]);
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-qdq-')), 'qdq.onnx');
  writeFileSync(path, g.toBytes({ opset: 17 }));
  return path;
}

describe('heapscope plan --target phone on a QDQ model', () => {
  it('stores the quantized pairs in uint8 on the NPU and copies to float32 where the CPU takes over', () => {
    const file = qdqModel();
    const plan = planJson([file, '--target', 'phone']);
    expect(plan.functions.map((f) => [f.unit, f.nodes])).toEqual([
      ['npu', ['q', 'dq', 'conv3', 'q2', 'dq2']],
      ['cpu', ['conv9']],
    ]);
    const bytes = (name: string) => plan.buffers.find((b) => b.name === name)?.size;
    // x and conv3's output are followed by QuantizeLinear: uint8; the DequantizeLinear outputs fold into their uint8 input
    expect(['x', 'q_out', 'dq_out', 'conv3_out', 'q2_out', 'dq2_out'].map(bytes)).toEqual([1024, 1024, 1024, 1024, 1024, 1024]);
    expect(plan.boundaries.map((b) => [b.tensor, b.shared, b.reason, b.copy])).toEqual([['dq2_out', false, 'type-mismatch', 'dq2_out@cpu#1']]);
    expect([bytes('dq2_out@cpu#1'), bytes('conv9_out')]).toEqual([4096, 4096]);
    // on the CPU alone only the QuantizeLinear outputs are 8-bit
    const cpu = planJson([file, '--target', 'cpu']);
    const cpuBytes = (name: string) => cpu.buffers.find((b) => b.name === name)?.size;
    expect(['x', 'q_out', 'dq_out', 'conv3_out'].map(cpuBytes)).toEqual([4096, 1024, 4096, 4096]);
  });
});

describe('heapscope plan with a bad compute unit', () => {
  it('names the field and the value in one line, exit code 2', () => {
    const path = targetFile({ regions: [{ name: 'ram' }], computeUnits: [{ name: 'npu', opTypes: ['Conv'], dtype: { activations: 'int7' } }] });
    const { code, err } = run(['plan', join(__dirname, '../public/sample.onnx'), '--target', path]);
    expect(code).toBe(2);
    expect(err).toMatch(/units\.json: computeUnits\[0\]\.dtype\.activations must be "model" or a data type name \(.*\), got "int7"/);
    expect(err.trim().split('\n')).toHaveLength(1);
  });
});

describe('heapscope plan --target phone on quantized models', () => {
  /** c1 (3×3) -> Relu -> c2 (3×3) -> Softmax, written dynamically quantized and as QLinear ops. */
  const file = (form: 'qlinear' | 'dynamic') => {
    const net = convNet([1, 4, 8, 8]).conv('c1', 'x', { out: 4, k: 3, p: 1 }).op('Relu', 'r1', 'c1').conv('c2', 'r1', { out: 4, k: 3, p: 1 }).op('Softmax', 's', 'c2').output('s');
    const path = join(mkdtempSync(join(tmpdir(), 'heapscope-units-')), `${form}.onnx`);
    writeFileSync(path, quantizedBytes(net.model(), form));
    return path;
  };

  it('runs the quantized layers on the int8 NPU and copies only where the CPU reads float', () => {
    for (const form of ['qlinear', 'dynamic'] as const) {
      const plan = planJson([file(form), '--target', 'phone']);
      expect(plan.valid).toBe(true);
      const npu = plan.functions.filter((f) => f.unit === 'npu').flatMap((f) => f.nodes);
      expect(['c1', 'c2'].every((n) => npu.includes(n)), form).toBe(true);
      const cpu = plan.functions.filter((f) => f.unit === 'cpu').flatMap((f) => f.nodes);
      expect(cpu, form).toEqual(['s']);
      expect(plan.boundaries.map((b) => [b.to.split('#')[0], b.reason]), form).toEqual([['cpu', 'type-mismatch']]);
    }
  });
});
