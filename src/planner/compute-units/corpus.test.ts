import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import type { InferredGraph, InferredValue } from '../../model/inferred';
import { assignOffsets } from '../assembly/assign-offsets';
import { planModel, type ModelPlan } from '../plan';
import { presetTarget } from '../targets/presets';
import type { PlacementProblem } from '../problem/problem';
import type { ComputeUnit, TargetProfile } from '../targets/target';
import { validatePlan } from '../assembly/validate-plan';
import { computeUnitPlan } from './compute-plan';
import { unitSupports } from './partition';
import { placerOf } from '../testing/placer';

const MODELS = join(__dirname, '../../../../shared/models');
// Every model of the folder, and the one in a sub-folder (its weights are in a file beside it): none is
// left out, each decodes and plans in well under a second.
const modelFiles = existsSync(MODELS)
  ? [...readdirSync(MODELS).filter((f) => f.endsWith('.onnx')).map((f) => join(MODELS, f)), join(MODELS, 'tiny-llama-fp16/model.onnx')]
  : [];
if (modelFiles.length === 0) console.log(`notice: ${MODELS} is absent; the compute-unit plans of real models are skipped`);

const COPY_REASONS = ['type-mismatch', 'alignment', 'read-later', 'layout'];
const QUANTIZERS = ['QuantizeLinear', 'DynamicQuantizeLinear', 'FakeQuantize'];
const BITS: Readonly<Record<string, number>> = { float32: 32, float16: 16, bfloat16: 16, float64: 64, int8: 8, uint8: 8, int16: 16, uint16: 16, int32: 32, int64: 64, bool: 8 };
const FLOATS = ['float32', 'float16', 'bfloat16', 'float64'];

/** The M3 type of `value` in a function on `unit`, worked out here from the rules and the unit's type policy. */
function expectedType(graph: InferredGraph, value: InferredValue, unit: ComputeUnit): string {
  const integer = (name: string) => !FLOATS.includes(name) && name !== 'bool' && BITS[name] !== undefined && BITS[name]! <= 32;
  const { activations, fakeQuantization } = unit.dtype;
  const quantizer = value.consumers.map((c) => graph.nodes[c]!).find((n) => QUANTIZERS.includes(n.opType));
  if (fakeQuantization && quantizer !== undefined) {
    const out = graph.values.find((v) => v.name === quantizer.outputs[0])?.dtypeName ?? '';
    if (integer(out)) return out;
    return integer(activations) ? activations : 'int8';
  }
  const producer = value.producer === undefined ? undefined : graph.nodes[value.producer]!;
  if ((fakeQuantization || integer(activations)) && producer?.opType === 'DequantizeLinear') {
    const source = graph.values.find((v) => v.name === producer.inputs[0])?.dtypeName ?? '';
    if (integer(source)) return source;
  }
  if (FLOATS.includes(value.dtypeName) && activations !== 'model') return activations;
  return value.dtypeName;
}

/** Checks every planned tensor of the model against its home function's level type. */
function checkLevelSizes(model: InferredGraph, plan: ModelPlan, target: TargetProfile): number {
  const unitOfNode = new Map(plan.functions.flatMap((f) => f.nodes.map((n) => [n, f.unit] as const)));
  const nodeIndex = new Map(model.nodes.map((n, i) => [n.name, i]));
  const homeUnit = (value: InferredValue): string | undefined => {
    if (value.producer !== undefined) return unitOfNode.get(model.nodes[value.producer]!.name);
    const steps = value.consumers.filter((c) => unitOfNode.has(model.nodes[c]!.name));
    const first = plan.steps.find((s) => steps.includes(nodeIndex.get(s.node) ?? -1));
    return first === undefined ? undefined : unitOfNode.get(first.node);
  };
  let checked = 0;
  for (const value of model.values) {
    const buffer = plan.buffers.find((b) => b.name === value.name);
    const unit = target.computeUnits.find((u) => u.name === homeUnit(value));
    if (buffer === undefined || unit === undefined || value.shape === undefined || buffer.alias !== undefined) continue;
    const dtype = expectedType(model, value, unit);
    const elements = value.shape.reduce((a, b) => a * b, 1);
    expect([value.name, buffer.bytes]).toEqual([value.name, Math.ceil((elements * BITS[dtype]!) / 8)]);
    checked++;
  }
  return checked;
}

/** The peak of a compute-unit problem laid out by m1, after checking the layout is valid. */
function laidOut(problem: PlacementProblem): number {
  const placement = assignOffsets(problem, 'm1');
  const validation = validatePlan(problem, placement);
  expect(validation.violations).toEqual([]);
  return placement.peak;
}

// phone: NPU (int8, fake quantization, Conv up to 7x7) + CPU fallback; phone-dsp adds an int16 DSP aligned to 128.
const cases = ['phone', 'phone-dsp'].flatMap((preset) => modelFiles.map((f) => [preset, f.slice(MODELS.length + 1), f] as const));

describe.skipIf(modelFiles.length === 0)('compute units on the real-model corpus', () => {
  it.each(cases)('%s, %s: partitions, sizes by level, decides every boundary, never worse than copying', (preset, _name, file) => {
    const target = presetTarget(preset);
    const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(file))), {});
    const plan = planModel(model, target);
    expect(plan.valid).toBe(true);
    expect(plan.functions.length).toBeGreaterThan(0);

    // partition: every scheduled node of the model is in exactly one function, on the first unit that runs it
    const values = new Map(model.values.map((v) => [v.name, v]));
    const byName = new Map(model.nodes.map((n) => [n.name, n]));
    const inFunctions = plan.functions.flatMap((f) => f.nodes);
    expect(new Set(inFunctions).size).toBe(inFunctions.length);
    expect(inFunctions.sort()).toEqual(plan.steps.map((s) => s.node).filter((n) => byName.has(n)).sort());
    for (const f of plan.functions) {
      const at = target.computeUnits.findIndex((u) => u.name === f.unit);
      const earlier = target.computeUnits.slice(0, at);
      for (const n of f.nodes) {
        const node = byName.get(n)!;
        // the CPU, last and listing '*', is the fallback and runs every op
        expect([n, unitSupports(target.computeUnits[at]!, node, values)]).toEqual([n, true]);
        expect([n, earlier.filter((u) => unitSupports(u, node, values)).map((u) => u.name)]).toEqual([n, []]);
      }
    }
    expect(plan.units?.map((u) => u.name)).toEqual(target.computeUnits.map((u) => u.name));

    // sizes follow the level rules
    expect(checkLevelSizes(model, plan, target)).toBeGreaterThan(0);

    // every boundary is shared or copied for a stated reason, into a copy buffer of its own
    for (const b of plan.boundaries) {
      if (b.shared) expect(b.reason).toBe('compatible');
      else {
        expect(COPY_REASONS).toContain(b.reason);
        expect(b.detail).not.toBe('');
        // the copy is stored as the reading function's unit stores the tensor
        const value = values.get(b.tensor)!;
        const reader = target.computeUnits.find((u) => u.name === plan.functions.find((f) => f.name === b.to)!.unit)!;
        expect(b.toType).toBe(expectedType(model, value, reader));
        const bytes = value.shape === undefined ? 0 : Math.ceil((value.shape.reduce((x, y) => x * y, 1) * BITS[b.toType]!) / 8);
        expect(plan.buffers.find((x) => x.name === b.copy)).toMatchObject({ kind: 'copy', bytes });
      }
    }

    // never worse than the plan that copies at every boundary, both laid out the same way
    const units = computeUnitPlan(model, target, { place: placerOf(target) })!;
    const baseline = computeUnitPlan(model, target, { place: placerOf(target), copyAll: true })!;
    expect(baseline.boundaries.every((b) => !b.shared)).toBe(true);
    expect(baseline.boundaries.map((b) => b.tensor)).toEqual(units.boundaries.map((b) => b.tensor));
    expect(laidOut(units.built.problem)).toBeLessThanOrEqual(laidOut(baseline.built.problem));
  });
});
