import { describe, expect, it } from 'vitest';
import { planModel } from '../plan';
import { testTarget } from '../testing/tiny-graph';
import { castGraph, copyGraph, scratchTarget, skipGraph } from '../testing/explain-graphs';

const record = (plan: ReturnType<typeof planModel>, name: string) => plan.explanation.peakLive.find((r) => r.name === name)!;

describe('peakLiveReasons', () => {
  it('names the skip connection, its far reader and the steps between', () => {
    const plan = planModel(skipGraph().model(), testTarget());
    const a = record(plan, 'a');
    expect(a.causes[0]).toBe('skip');
    expect(a.reason).toBe('kept for the skip connection into E, 5 steps later');
    expect(a.producer).toEqual({ node: 'A', opType: 'Conv', step: 0 });
    expect(a.lastReader).toEqual({ node: 'E', opType: 'Concat', step: 5 });
    expect(a.previousReader?.node).toBe('B');
    expect(a.span).toEqual({ start: 0, end: 6, steps: 6, ops: { Relu: 4 } });
    expect(record(plan, 'e').reason).toBe('written by Concat E at the peak step');
    expect(plan.explanation.peakLive.reduce((s, r) => s + r.counted, 0)).toBe(plan.peak);
  });

  it('says a buffer is float32 because the Cast after it converts to float16', () => {
    const r = record(planModel(castGraph().model(), testTarget()), 'r');
    expect(r.causes).toEqual(['operand', 'dtype']);
    expect(r.reason).toContain('float32 because the Cast after it (C) converts to float16; stored as float16 it would take 200 B');
    expect(r.narrowTo).toEqual({ dtype: 'float16', size: 200 });
  });

  it('says why a tensor is copied to the CPU: the NPU has no kernel for its reader', () => {
    const { graph, target } = copyGraph();
    const plan = planModel(graph.model(), target);
    const copy = plan.explanation.peakLive.find((r) => r.kind === 'copy')!;
    expect(copy.causes[0]).toBe('copy');
    expect(copy.reason).toMatch(/^copied to cpu because Resize has no npu kernel \(from npu: npu stores int8, cpu reads float32\)$/);
  });

  it('names scratch by its op, and graph inputs by how long they are kept', () => {
    const plan = planModel(skipGraph().model(), scratchTarget());
    expect(record(plan, 'A:im2col').reason).toBe('scratch of Conv A while it runs');
    expect(record(plan, 'x').reason).toBe('graph input, read until Conv A');
    expect(record(plan, 'x').producer).toBeUndefined();
  });
});
