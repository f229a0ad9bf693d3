// Weights and graph I/O in the memory map: the target fields that place them,
// and what a plan counts where (planModel on small graphs built here).

import { describe, expect, it } from 'vitest';
import { planModel, type ModelPlan } from '../plan';
import { parseTarget } from '../targets/parse';
import { tinyGraph } from '../testing/tiny-graph';
import type { TargetProfile } from '../targets/target';

/** x -> Relu -> Add(w) -> Relu = c (an output), Concat(c, x) -> Relu = y (an output); w is 64 float32 weights (256 B). */
function model() {
  const g = tinyGraph().input('x', [64]).weight('w', [64]);
  g.node('Relu', ['x'], { a: [64] }).node('Add', ['a', 'w'], { b: [64] }).node('Relu', ['b'], { c: [64] });
  g.node('Concat', ['c', 'x'], { d: [128] }).node('Relu', ['d'], { y: [128] });
  return g.output('c', 'y').model();
}

/** SRAM of `limit` bytes (fast, 16-byte alignment) then unlimited external RAM, with `planning` fields. */
function target(limit: number, planning: Record<string, unknown> = {}): TargetProfile {
  return parseTarget({
    name: 't',
    regions: [{ name: 'sram', alignment: 16, fast: true, sizeLimit: limit }, { name: 'ext', alignment: 16, fast: false }],
    planning: { activationRegion: 'sram', ...planning },
  });
}

const region = (plan: ModelPlan, name: string) => plan.regions.find((r) => r.name === name)!;
const layout = (plan: ModelPlan) => plan.buffers.map((b) => [b.name, b.region, b.offset, b.size]);

describe('weights placed by the target', () => {
  const WEIGHTS = 64 * 4;

  it('in flash (the default) take no region: the plan is the same as without the field', () => {
    const plain = planModel(model(), target(1024));
    const flash = planModel(model(), target(1024, { weights: {} }));
    expect(layout(flash)).toEqual(layout(plain));
    expect(flash.storage?.weights).toEqual({ in: 'flash', copied: false, bytes: WEIGHTS, home: 'flash' });
    for (const r of flash.regions) expect([r.weights, r.used]).toEqual([0, r.peak]);
  });

  it('in SRAM take its bytes for the whole run: activations spill to fit in what is left, and used counts both', () => {
    const plain = planModel(model(), target(1024));
    expect(region(plain, 'sram').peak).toBeGreaterThan(1024 - WEIGHTS); // without weights there, SRAM holds more than they leave
    const plan = planModel(model(), target(1024, { weights: { region: 'sram', copied: true } }));
    const sram = region(plan, 'sram');
    expect(sram.weights).toBe(WEIGHTS);
    expect(sram.used).toBe(sram.peak + WEIGHTS);
    expect(sram.peak).toBeLessThanOrEqual(1024 - WEIGHTS);
    expect(region(plan, 'ext').spilled).toBeGreaterThan(0);
    expect(plan.fits).toBe(true);
    expect(plan.storage?.weights).toEqual({ in: 'sram', copied: true, bytes: WEIGHTS, home: 'flash' });
  });

  it('more than the region holds make the plan not fit, by the weights above the limit, and name that memory', () => {
    const plan = planModel(model(), target(200, { weights: { region: 'sram' } }));
    const sram = region(plan, 'sram');
    expect(sram.peak).toBe(0);
    expect(sram.overBy).toBe(WEIGHTS - 200);
    expect(plan.fits).toBe(false);
    expect(plan.fitNeeds).toContainEqual({ region: 'sram', bytes: WEIGHTS - 200, atLeast: false });
    expect(plan.diagnostics.find((d) => d.code === 'over-limit')?.message).toContain('of it weights');
  });

  it('round up to the region alignment', () => {
    const g = tinyGraph().input('x', [3]).weight('w', [3]).node('Add', ['x', 'w'], { y: [3] }).output('y').model();
    const plan = planModel(g, target(1024, { weights: { region: 'ext' } }));
    expect([region(plan, 'ext').weights, plan.storage?.weights.bytes]).toEqual([16, 12]);
  });
});

describe('graph inputs and outputs', () => {
  it('in the arena (the default) are planned there and counted as io', () => {
    const plan = planModel(model(), target(4096));
    const io = plan.buffers.filter((b) => b.kind === 'input' || b.kind === 'output');
    expect(region(plan, 'sram').io).toBe(io.reduce((sum, b) => sum + b.size, 0));
    expect(plan.storage?.io).toEqual({ owner: 'arena', bytes: (64 + 64 + 128) * 4, inArena: (64 + 64 + 128) * 4, kvBytes: 0, unknownSizes: 0 });
  });

  it('owned by the application take no arena bytes, nor do the views of them, and the arena peak falls', () => {
    const arena = planModel(model(), target(4096));
    const plan = planModel(model(), target(4096, { io: 'application' }));
    for (const b of plan.buffers) if (b.kind === 'input' || b.kind === 'output') expect([b.name, b.size, b.alias]).toEqual([b.name, 0, undefined]);
    // The Concat copy the output c was a window of keeps its bytes: it is an activation.
    expect(plan.buffers.find((b) => b.name === 'd')!.size).toBe(128 * 4);
    expect(region(plan, 'sram').io).toBe(0);
    expect(plan.storage?.io).toEqual({ owner: 'application', bytes: (64 + 64 + 128) * 4, inArena: 0, kvBytes: 0, unknownSizes: 0 });
    expect(plan.peak).toBeLessThan(arena.peak);
    expect(plan.valid).toBe(true);
  });
});

describe('target fields', () => {
  const bad = (planning: Record<string, unknown>) => () => target(1024, planning);

  it('refuse a weights region that does not exist, a copy with nowhere to go, an unknown io owner, each in one line', () => {
    expect(bad({ weights: { region: 'flash' } })).toThrow(/^planning\.weights\.region must name a region \(sram, ext\), or be left out for flash, got "flash"$/);
    expect(bad({ weights: { copied: true } })).toThrow(/^planning\.weights\.copied needs a region to copy the weights to, got true$/);
    expect(bad({ weights: { region: 'sram', at: 0 } })).toThrow(/^planning\.weights/);
    expect(bad({ io: 'app' })).toThrow(/^planning\.io must be one of "arena", "application", got "app"$/);
  });

  it('are left absent when not given, so presets and saved targets keep their plans', () => {
    const t = target(1024);
    expect([t.planning.weights, t.planning.io]).toEqual([undefined, undefined]);
  });
});
