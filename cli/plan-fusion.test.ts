import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetTarget } from '../src/planner/presets';
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
