import { describe, expect, it } from 'vitest';
import type { ModelPlan, PlannedBuffer } from '../../planner/plan';
import { heapData } from './heap-data';
import { legendKeys } from './legend-keys';
import { syntheticPlan } from './synthetic-plan';

/** A plan of `buffers` in one region. */
function planOf(buffers: readonly PlannedBuffer[]): ModelPlan {
  return { ...syntheticPlan(4, 3), buffers };
}

const buffer = (id: number, kind: PlannedBuffer['kind'], extra: Partial<PlannedBuffer> = {}): PlannedBuffer => ({
  id, name: `b${id}`, kind, size: 64, bytes: 64, start: 0, end: 2, offset: 64 * id, region: 'ram', ...extra,
});

describe('the heap legend', () => {
  it('names the colour classes the buffers have, in the legend order, and no mark no buffer carries', () => {
    const keys = legendKeys([heapData(planOf([buffer(0, 'scratch'), buffer(1, 'activation'), buffer(2, 'activation')]))]);
    expect(keys.classes.map((c) => c.kind)).toEqual(['activation', 'scratch']);
    expect(keys).toMatchObject({ shared: false, spilled: false });
  });

  it('names a KV cache, shared bytes and spilled buffers when some buffer is one', () => {
    const plan = planOf([buffer(0, 'input'), buffer(1, 'output', { alias: { parent: 0, offset: 0, rule: 'in-place' } }), buffer(2, 'copy', { wanted: 'sram' })]);
    const keys = legendKeys([heapData(plan, new Set(['b0']))]);
    expect(keys.classes.map((c) => c.kind)).toEqual(['io', 'kv', 'copy']);
    expect(keys).toMatchObject({ shared: true, spilled: true });
  });

  it('names what either side of a comparison has', () => {
    const a = heapData(planOf([buffer(0, 'activation')]));
    const b = heapData(planOf([buffer(0, 'cache')]));
    expect(legendKeys([a, b]).classes.map((c) => c.kind)).toEqual(['activation', 'cache']);
  });
});
