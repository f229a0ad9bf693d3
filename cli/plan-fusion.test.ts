import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convNet } from '../src/planner/fusion/testing/conv-net';
import { quantizedBytes, type QuantizedForm } from '../src/planner/fusion/testing/quantize-net';
import { presetTarget } from '../src/planner/targets/presets';
import { run, planJson } from './testing/run-cli';

const SAMPLE = join(__dirname, '../public/sample.onnx');
const MODELS = join(__dirname, '../../shared/models');
const hasModels = existsSync(MODELS);
if (!hasModels) console.log(`notice: ${MODELS} is absent; fusion of real models from the CLI is skipped`);

function targetFile(doc: object): string {
  const path = join(mkdtempSync(join(tmpdir(), 'heapscope-fusion-')), 'target.json');
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

/** The fields of a unit the JSON promises. */
function expectUnitFields(unit: Record<string, unknown>): void {
  expect(Object.keys(unit)).toEqual(
    expect.arrayContaining(['kind', 'nodes', 'onChipBytes', 'trafficSaved', 'id', 'name', 'mode', 'onChip', 'rules', 'traffic']),
  );
  expect(unit.name).toBe(`${unit.kind === 'tfu' ? 'tfu' : 'dwpw'}${unit.id}`);
  expect((unit.rules as string[]).length).toBeGreaterThan(0);
  expect(unit.trafficSaved).toBeGreaterThan(0);
}

describe('heapscope plan with fusion', () => {
  it.skipIf(!hasModels)('--target accelerator prints template fusion units and lower DRAM traffic (FastestDet)', () => {
    const plan = planJson([join(MODELS, 'FastestDet.onnx'), '--target', 'accelerator']);
    expect(plan.valid).toBe(true);
    expect(plan.fusionUnits.length).toBeGreaterThan(0);
    for (const unit of plan.fusionUnits) {
      expectUnitFields(unit);
      expect(unit.kind).toBe('tfu');
      expect(['small-map', 'large-map']).toContain(unit.mode);
      expect(unit.tile.rows).toBeGreaterThan(0);
      expect(unit.onChip.sram).toBe(unit.onChipBytes);
    }
    expect(plan.traffic.after).toBeLessThan(plan.traffic.before);
    const sram = plan.buffers.filter((b: { region: string }) => b.region === 'sram');
    expect(sram.length).toBeGreaterThan(0);
    expect(plan.fusionExplanations.length).toBeGreaterThan(0);
  });

  it('--target accelerator fuses the sample model', () => {
    const plan = planJson([SAMPLE, '--target', 'accelerator']);
    expect(plan.fusionUnits.length).toBeGreaterThan(0);
    plan.fusionUnits.forEach(expectUnitFields);
    expect(plan.traffic.after).toBeLessThan(plan.traffic.before);
  });

  it('--target phone fuses depthwise + pointwise blocks of the sample with a cache window', () => {
    const plan = planJson([SAMPLE, '--target', 'phone']);
    const units = plan.fusionUnits;
    expect(units.length).toBeGreaterThan(0);
    for (const unit of units) {
      expectUnitFields(unit);
      expect([unit.kind, unit.mode]).toEqual(['dw-pw', 'cache-window']);
      expect(unit.cache.bytes).toBeLessThanOrEqual(presetTarget('phone').fusion!.dwPwCacheBytes!);
      expect(unit.cache.rows).toBeGreaterThan(0);
    }
    expect(plan.buffers.filter((b: { kind: string }) => b.kind === 'cache')).toHaveLength(units.length);
  });

  it('a target file with fusion off plans no units, and a bad fusion field is named', () => {
    const doc = { name: 'board', regions: [{ name: 'dram' }, { name: 'sram', fast: true }], fusion: { enabled: false, sramBytes: 1024, nramBytes: 0, wramBytes: 0 } };
    const plan = planJson([SAMPLE, '--target', targetFile(doc)]);
    expect(plan.fusionUnits).toEqual([]);
    expect(plan.traffic.after).toBe(plan.traffic.before);
    const bad = run(['plan', SAMPLE, '--target', targetFile({ ...doc, fusion: { ...doc.fusion, onChipRegion: 'l2' } }), '--json']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('fusion.onChipRegion must name a region (regions: dram, sram), got "l2"');
  });
});

describe('heapscope plan with fusion on quantized models', () => {
  /** c0 (3×3) -> dw (3×3 depthwise) -> Relu -> pw (1×1) -> c2 (3×3) -> Flatten -> MatMul, written quantized. */
  const net = () =>
    convNet([1, 8, 16, 16])
      .conv('c0', 'x', { out: 8, k: 3, p: 1 })
      .dw('dw', 'c0')
      .op('Relu', 'relu', 'dw')
      .conv('pw', 'relu', { out: 8 })
      .conv('c2', 'pw', { out: 8, k: 3, p: 1 })
      .node('Flatten', 'f', ['c2'], [1, 2048])
      .constant('m.w', [2048, 10])
      .node('MatMul', 'm', ['f', 'm.w'], [1, 10])
      .output('m')
      .model();
  const file = (form: QuantizedForm) => {
    const path = join(mkdtempSync(join(tmpdir(), 'heapscope-quantized-')), `${form}.onnx`);
    writeFileSync(path, quantizedBytes(net(), form));
    return path;
  };

  it.each(['qdq', 'qlinear', 'dynamic'] as const)('%s: accelerator fuses the convs, explains what it leaves out in the rule’s words; phone fuses dw + pw on the NPU', (form) => {
    const path = file(form);
    const acc = planJson([path, '--target', 'accelerator']);
    expect(acc.valid).toBe(true);
    expect(acc.fusionUnits.length).toBeGreaterThan(0);
    acc.fusionUnits.forEach(expectUnitFields);
    const fused = acc.fusionUnits.flatMap((u: { nodes: string[] }) => u.nodes);
    expect(['c0', 'dw', 'pw'].every((n) => fused.includes(n))).toBe(true);
    expect(acc.traffic.after).toBeLessThan(acc.traffic.before);
    const why = (node: string) => acc.fusionExplanations.find((e: { node: string }) => e.node === node).reason;
    // c2 stays out as in the float model: the unit's 3×3 windows would add up to more than the stride rule allows
    expect(acc.fusionExplanations.some((e: { reason: string }) => e.reason.includes("stride-redundancy: kernel - stride sums H 6, W 6 > 4"))).toBe(true);
    expect(fused).not.toContain('c2');
    const matmul = { qdq: 'MatMul', qlinear: 'QLinearMatMul', dynamic: 'MatMulInteger' }[form];
    expect(why('m')).toBe(`cannot be in a unit: ${matmul} has no feature-map tiling rule`);
    expect(why('f')).toBe('cannot be in a unit: Flatten has no feature-map tiling rule');

    const phone = planJson([path, '--target', 'phone']);
    expect(phone.fusionUnits.map((u: { kind: string; nodes: string[] }) => [u.kind, u.nodes.includes('dw') && u.nodes.includes('pw')])).toEqual([['dw-pw', true]]);
    const npu = phone.functions.filter((f: { unit: string }) => f.unit === 'npu').flatMap((f: { nodes: string[] }) => f.nodes);
    expect(['c0', 'dw', 'pw', 'c2'].every((n) => npu.includes(n))).toBe(true);
  });
});
