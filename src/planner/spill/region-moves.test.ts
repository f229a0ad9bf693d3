// Bytes moved per region over one inference (the memory map's cost figure):
// scratch by the bytes its op asked for, not the free space M4 granted it, and
// weights placed in a RAM region read there by every op that takes them
// (planModel on small graphs built here, figures computed by hand).

import { describe, expect, it } from 'vitest';
import { planModel, type ModelPlan } from '../plan';
import { parseTarget } from '../targets/parse';
import { tinyGraph } from '../testing/tiny-graph';
import type { TargetProfile } from '../targets/target';

/** SRAM then unlimited external RAM (16-byte alignment), with `planning` and `scratch` fields. */
function target(planning: Record<string, unknown> = {}, scratch: Record<string, unknown> = {}): TargetProfile {
  return parseTarget({
    name: 't',
    regions: [{ name: 'sram', alignment: 16, fast: true, sizeLimit: 1 << 20 }, { name: 'ext', alignment: 16, fast: false }],
    planning: { activationRegion: 'sram', ...planning },
    scratch,
  });
}

const moved = (plan: ModelPlan, name: string) => plan.regions.find((r) => r.name === name)!.moved!;
const total = (plan: ModelPlan) => plan.regions.reduce((sum, r) => sum + (r.moved?.written ?? 0) + (r.moved?.read ?? 0), 0);

describe('scratch in the bytes moved', () => {
  // x (256 floats) -> Relu -> a -> Slice -> b (8 floats) -> Relu -> y: each Relu's work buffer (in the SRAM) asks for at least 16 B and may take any free space.
  const model = () => {
    const g = tinyGraph().input('x', [256]);
    g.node('Relu', ['x'], { a: [256] }).node('Slice', ['a'], { b: [8] }).node('Relu', ['b'], { y: [8] });
    return g.output('y').model();
  };
  const rules = { rules: [{ opType: 'Relu', name: 'work', bytes: 16, variable: true, latencyCritical: true }] };

  it('counts a variable-size buffer by the bytes its op asked for, not the free space it was granted', () => {
    const plan = planModel(model(), target({}, rules));
    const work = plan.buffers.filter((b) => b.kind === 'scratch');
    expect(work.length).toBe(2);
    // The second Relu runs with 64 B live in a heap x and a made 2 KiB tall: it is granted the free space, far more than it asked.
    expect(work.some((b) => b.size > 16)).toBe(true);
    for (const b of work) expect([b.name, b.moved]).toEqual([b.name, 16 + 16]);
    const without = planModel(model(), target());
    expect(total(plan) - total(without)).toBe(2 * (16 + 16));
  });
});

describe('weights in the bytes moved', () => {
  // w (64 floats) is read by two Adds; v (16 floats) by one Mul, which takes it twice.
  const model = () => {
    const g = tinyGraph().input('x', [64]).weight('w', [64]).weight('v', [16]);
    g.node('Add', ['x', 'w'], { a: [64] }).node('Add', ['a', 'w'], { b: [64] }).node('Slice', ['b'], { c: [16] });
    g.node('Mul', ['c', 'v', 'v'], { y: [16] });
    return g.output('y').model();
  };
  const W = 64 * 4;
  const V = 16 * 4;

  it('in flash move nothing in any region', () => {
    const plain = planModel(model(), target());
    const flash = planModel(model(), target({ weights: {} }));
    expect(flash.regions.map((r) => r.moved)).toEqual(plain.regions.map((r) => r.moved));
  });

  it('loaded in a RAM region are read there once per op that takes them', () => {
    const plain = planModel(model(), target());
    const plan = planModel(model(), target({ weights: { region: 'ext' } }));
    expect(moved(plan, 'ext')).toEqual({ written: moved(plain, 'ext').written, read: moved(plain, 'ext').read + 2 * W + V });
    expect(moved(plan, 'sram')).toEqual(moved(plain, 'sram'));
  });

  it('copied to a RAM region at start are also written there once', () => {
    const plain = planModel(model(), target());
    const plan = planModel(model(), target({ weights: { region: 'sram', copied: true } }));
    expect(moved(plan, 'sram')).toEqual({ written: moved(plain, 'sram').written + W + V, read: moved(plain, 'sram').read + 2 * W + V });
  });
});
