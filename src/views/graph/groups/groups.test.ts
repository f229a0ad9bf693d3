import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../../model/onnx/decode-onnx';
import { inferShapes } from '../../../model/infer/shapes';
import { densenetModel } from '../../../model/testing/densenet-model';
import { LLAMA_80, llamaModel } from '../../../model/testing/llama-model';
import { firstCollapsed, graphGroups } from './groups';
import { graphLayoutInput } from '../layout/layout-input';
import { scopePath } from './scopes';
import { planModel } from '../../../planner/plan';
import { presetTarget } from '../../../planner/targets/presets';
import { dequantizeModel } from '../../../store/testing/dequantize-model';

describe('scopePath', () => {
  it('reads torch.onnx paths, dotted module paths and plain names', () => {
    expect(scopePath('/stage1/conv/Conv')).toEqual(['stage1', 'conv']);
    expect(scopePath('encoder.layer.3.attention.dense')).toEqual(['encoder', 'layer.3', 'attention']);
    expect(scopePath('stem/conv')).toEqual(['stem']);
    expect(scopePath('Conv_12')).toEqual([]);
  });
});

type Box = { readonly id: string; readonly children?: readonly Box[] };
/** Every box, nested ones included. */
const all = (boxes: readonly Box[]): Box[] => boxes.flatMap((b) => [b, ...all(b.children ?? [])]);

describe('graphGroups', () => {
  it('folds every ConstantOfShape weight of an ONNX-style DenseNet into its consumer; the toggle shows them again', () => {
    const model = inferShapes(decodeOnnx(densenetModel()));
    const constants = model.nodes.filter((n) => n.constant).length;
    expect(constants).toBeGreaterThan(500);
    const folded = graphLayoutInput(model, undefined, { collapsed: new Set(), bodies: new Set() });
    expect(all(folded.graph.boxes).filter((b) => b.id.startsWith('n'))).toHaveLength(model.nodes.length - constants);
    const conv = [...folded.items.values()].find((i) => i.title === 'Conv')!;
    expect(conv.constants).toHaveLength(1);
    expect(folded.boxOfNode.every((b) => b !== undefined)).toBe(true);
    const shown = graphLayoutInput(model, undefined, { collapsed: new Set(), bodies: new Set(), constants: true });
    expect(all(shown.graph.boxes).filter((b) => b.id.startsWith('n'))).toHaveLength(model.nodes.length);
  });

  it("draws a DEQUANTIZE of a weight as a box where the plan runs it (tflm), its output an edge; folds it elsewhere", () => {
    const model = dequantizeModel();
    const dequantize = model.nodes.findIndex((n) => n.opType === 'DEQUANTIZE');
    const toggles = { collapsed: new Set<string>(), bodies: new Set<string>() };
    const tflm = graphLayoutInput(model, planModel(model, presetTarget('tflm')), toggles);
    expect(tflm.boxOfNode[dequantize]).toBe(`n${dequantize}`);
    expect([...tflm.edges.values()].find((e) => e.values.includes('w'))).toMatchObject({ source: `n${dequantize}` });
    // the fully connected op's folded inputs no longer hold the tensor the arena holds
    const fc = [...tflm.items.values()].find((i) => i.title === 'FULLY_CONNECTED')!;
    expect(fc.constants).toEqual([]);
    const cpu = graphLayoutInput(model, planModel(model, presetTarget('cpu')), toggles);
    expect(cpu.boxOfNode[dequantize]).not.toBe(`n${dequantize}`);
    expect([...cpu.items.values()].find((i) => i.title === 'FULLY_CONNECTED')!.constants).toHaveLength(1);
  });

  it('cuts a large model without name scopes into segments at single-tensor cuts, which the first view shows collapsed', () => {
    const model = inferShapes(decodeOnnx(densenetModel()));
    const groups = graphGroups(model, undefined, false);
    const segments = groups.scopes.filter((s) => s.id.startsWith('sc:#'));
    expect(segments.length).toBeGreaterThanOrEqual(8);
    expect(segments.length).toBeLessThanOrEqual(24);
    const shown = groups.folded.filter((f) => !f).length;
    expect(segments.reduce((n, s) => n + s.nodes.length, 0)).toBe(shown);
    // Consecutive, in model order: each segment starts after the previous one ends.
    segments.slice(1).forEach((s, k) => expect(s.nodes[0]).toBeGreaterThan(segments[k]!.nodes.at(-1)!));
    const collapsed = firstCollapsed(groups);
    const input = graphLayoutInput(model, undefined, { collapsed, bodies: new Set() }, groups);
    expect(all(input.graph.boxes).length).toBeLessThanOrEqual(30);
    // A small model keeps its flat view.
    const small = graphGroups(inferShapes(decodeOnnx(densenetModel({ blocks: [2, 2], growth: 8, image: 32, constantWeights: true }))), undefined, false);
    expect(small.scopes).toHaveLength(0);
  });

  it('dissolves a top scope that holds nearly every node (the decoder\'s /model)', () => {
    const model = inferShapes(decodeOnnx(llamaModel({ ...LLAMA_80, layers: 4 })));
    const groups = graphGroups(model, undefined, false);
    expect(groups.scopes.map((s) => s.id)).not.toContain('sc:/model');
    expect(groups.scopes.find((s) => s.id === 'sc:/model/layers.1')?.parent).toBeUndefined();
  });

  it('opens an 80-layer decoder as a few dozen boxes, the layers in runs of ten', () => {
    const model = inferShapes(decodeOnnx(llamaModel()));
    const groups = graphGroups(model, undefined, false);
    const runs = groups.scopes.filter((s) => /^layers \d+–\d+$/.test(s.label));
    expect(runs).toHaveLength(LLAMA_80.layers / 10);
    const collapsed = firstCollapsed(groups);
    const input = graphLayoutInput(model, undefined, { collapsed, bodies: new Set() }, groups);
    const count = (boxes: readonly { children?: readonly unknown[] }[]): number => boxes.reduce((n, b) => n + 1 + count((b.children ?? []) as never), 0);
    expect(count(input.graph.boxes)).toBeGreaterThan(10);
    expect(count(input.graph.boxes)).toBeLessThanOrEqual(40);
    expect(runs.filter((r) => input.items.get(r.id)?.kind === 'collapsed').length).toBeGreaterThanOrEqual(runs.length - 1);
    // Boxes in the model's order, though the layer groups were first reached by their past_key_values inputs.
    const order = input.graph.boxes.map((b) => b.id);
    expect(order.indexOf('n0')).toBeLessThan(order.findIndex((id) => id.startsWith('sc:/model/layers')));
    // Every past_key_values input sits inside its layer's group, not at the top.
    expect(input.graph.boxes.filter((b) => b.id.startsWith('in:past_key_values'))).toHaveLength(0);
  });
});

describe('graphGroups, shared', () => {
  it('are worked out once per model, plan and Constants toggle, so the layout and the details read one copy', () => {
    const model = dequantizeModel();
    const plan = planModel(model, presetTarget('tflm'));
    const folded = graphGroups(model, plan, false);
    expect(graphGroups(model, plan, false)).toBe(folded);
    const shown = graphGroups(model, plan, true);
    expect(shown).not.toBe(folded);
    expect(graphGroups(model, plan, true)).toBe(shown);
    expect(graphGroups(model, undefined, false)).toBe(graphGroups(model, undefined, false));
    expect(graphGroups(model, planModel(model, presetTarget('tflm')), false)).not.toBe(folded);
  });
});
