import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DT } from '../../../model/dtype';
import { inferShapes } from '../../../model/infer/shapes';
import type { InferredModel } from '../../../model/inferred';
import { irGraph } from '../../../model/testing/ir-builder';
import { LLAMA_80, llamaModel } from '../../../model/testing/llama-model';
import { decodeOnnx } from '../../../model/onnx/decode-onnx';
import { planModel, type FusionUnitRecord, type ModelPlan } from '../../../planner/plan';
import { presetTarget } from '../../../planner/targets/presets';
import type { LayoutBox } from '../../../worker/layout/protocol';
import { aliasMarks, graphClusters } from '../groups/clusters';
import { edgeText, graphLayoutInput, graphLabel, type GraphToggles } from './layout-input';
import { kvLayerOf } from '../../kv-cache-names';

const GPT2 = join(__dirname, '../../../../../shared/models/tiny-random-gpt2-fp32-past.onnx');
const OPEN: GraphToggles = { collapsed: new Set(), bodies: new Set() };

/** x[1,4] -> a: Relu -> b: Sigmoid -> c: Tanh -> d: Add(c, b) -> e: Neg -> y */
function chain(): InferredModel {
  return inferShapes(
    irGraph()
      .input('x', DT.FLOAT, [1, 4])
      .node('Relu', ['x'], ['a'], {}, { name: 'relu' })
      .node('Sigmoid', ['a'], ['b'], {}, { name: 'sigmoid' })
      .node('Tanh', ['b'], ['c'], {}, { name: 'tanh' })
      .node('Add', ['c', 'b'], ['d'], {}, { name: 'add' })
      .node('Neg', ['d'], ['y'], {}, { name: 'neg' })
      .output('y')
      .model(),
  );
}

/** The cpu plan of `model` with the given functions and fusion units (as the M3 and M2/M5 planners report them). */
function planWith(model: InferredModel, parts: { functions?: [string, string, string[]][]; fusion?: [string, 'tfu' | 'dw-pw', string[]][] }): ModelPlan {
  const plan = planModel(model, presetTarget('cpu'));
  const functions = (parts.functions ?? []).map(([name, unit, nodes]) => ({ name, unit, nodes, copies: [], firstStep: 0, lastStep: 0 }));
  const fusionUnits = (parts.fusion ?? []).map(([name, kind, nodes]) => fusionUnit(name, kind, nodes));
  return { ...plan, functions, fusionUnits };
}

/** A fusion unit record with the fields the graph reads (name, kind, nodes, and the tensors it keeps on chip for the edges' sizes). */
function fusionUnit(name: string, kind: 'tfu' | 'dw-pw', nodes: string[]): FusionUnitRecord {
  return { name, kind, nodes, internal: [] } as Partial<FusionUnitRecord> as FusionUnitRecord;
}

function ids(boxes: readonly LayoutBox[] | undefined): string[] {
  return (boxes ?? []).map((b) => b.id);
}

describe('graphLayoutInput', () => {
  it('draws one box per node and per graph input and output, and one labelled edge per producer-consumer pair', () => {
    const model = chain();
    const input = graphLayoutInput(model, undefined, OPEN);
    expect(ids(input.graph.boxes)).toEqual(['in:x', 'n0', 'n1', 'n2', 'n3', 'n4', 'out:y']);
    expect(input.boxOfNode).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(input.graph.links.map((l) => `${l.source}>${l.target}`)).toEqual(['in:x>n0', 'n0>n1', 'n1>n2', 'n1>n3', 'n2>n3', 'n3>n4', 'n4>out:y']);
    const edge = input.edges.get('e:n1>n3')!;
    expect(edge.values).toEqual(['b']);
    expect(edge.text).toBe('1×4 · 16 B');
    const link = input.graph.links.find((l) => l.id === 'e:n1>n3')!;
    expect(link.label?.text).toBe('1×4 · 16 B');
    expect(link.label!.width).toBeGreaterThan(40);
    expect(input.items.get('n3')).toMatchObject({ kind: 'op', title: 'Add', subtitle: 'add', node: 3 });
  });

  it('hints the quantization of a TensorFlow Lite tensor on its edge and its input box, and nothing for the others', () => {
    const model = chain();
    const quantized = (value: string) => ({ value, type: 'INT8', shape: [1, 4], signature: undefined, bytes: 4, constant: false, variable: false, quantization: { scale: [0.5], zeroPoint: [-128], axis: 0 } });
    const tflite = { schemaVersion: 3, metadata: [], offlinePlan: undefined, subgraphs: [{ name: 'main', inputs: [0], outputs: [1], operators: [], tensors: [quantized('x'), quantized('b')] }] };
    const input = graphLayoutInput({ ...model, format: 'tflite', tflite }, undefined, OPEN);
    expect(input.edges.get('e:n1>n3')!.hint).toBe('b: scale 0.5, zero point -128');
    expect(input.items.get('in:x')!.hint).toBe('x: scale 0.5, zero point -128');
    expect(input.edges.get('e:n0>n1')!.hint).toBeUndefined();
    expect(graphLayoutInput(model, undefined, OPEN).edges.get('e:n1>n3')!.hint).toBeUndefined();
  });

  it('draws functions and fusion units as frames around their nodes, so the boxes laid out do not depend on them', () => {
    const model = chain();
    const plan = planWith(model, { functions: [['npu#0', 'npu', ['relu', 'sigmoid', 'tanh']], ['cpu#1', 'cpu', ['add', 'neg']]], fusion: [['tfu0', 'tfu', ['sigmoid', 'tanh']]] });
    const input = graphLayoutInput(model, plan, OPEN);
    expect(ids(input.graph.boxes)).toEqual(['in:x', 'n0', 'n1', 'n2', 'n3', 'n4', 'out:y']);
    expect(input.key).toBe(graphLayoutInput(model, undefined, OPEN).key);
    expect(input.overlays.map((c) => c.id)).toEqual(['fn:npu#0', 'fn:cpu#1', 'fu:tfu0']);
    expect(input.items.get('fn:npu#0')).toMatchObject({ kind: 'cluster', title: 'npu#0', subtitle: 'on npu · 3 nodes' });
    expect(input.items.get('fu:tfu0')).toMatchObject({ kind: 'cluster', subtitle: 'fusion (tfu) · 2 nodes' });
    expect(input.graph.links.map((l) => `${l.source}>${l.target}`)).toContain('n2>n3');
  });

  it('draws a collapsed cluster as one box with its node count; its edges are rerouted, merged and relabelled', () => {
    const model = chain();
    const plan = planWith(model, { functions: [['npu#0', 'npu', ['sigmoid', 'tanh']], ['cpu#1', 'cpu', ['relu', 'add', 'neg']]] });
    const input = graphLayoutInput(model, plan, { collapsed: new Set(['fn:npu#0']), bodies: new Set() });
    const collapsed = input.graph.boxes.find((b) => b.id === 'fn:npu#0')!;
    expect(collapsed.children).toBeUndefined();
    expect(input.items.get('fn:npu#0')).toMatchObject({ kind: 'collapsed', subtitle: 'on npu · 2 nodes', members: [1, 2] });
    expect(input.boxOfNode).toEqual(['n0', 'fn:npu#0', 'fn:npu#0', 'n3', 'n4']);
    const links = input.graph.links.map((l) => `${l.source}>${l.target}`);
    expect(links).toEqual(['in:x>n0', 'n0>fn:npu#0', 'fn:npu#0>n3', 'n3>n4', 'n4>out:y']);
    // b (Sigmoid -> Add) and c (Tanh -> Add) now run along the same edge.
    expect(input.edges.get('e:fn:npu#0>n3')).toMatchObject({ values: ['b', 'c'], text: '2 tensors · 32 B' });
  });

  it('collapsing a function hides the fusion units inside it', () => {
    const model = chain();
    const plan = planWith(model, { functions: [['npu#0', 'npu', ['relu', 'sigmoid', 'tanh']], ['cpu#1', 'cpu', ['add', 'neg']]], fusion: [['tfu0', 'tfu', ['sigmoid', 'tanh']]] });
    const input = graphLayoutInput(model, plan, { collapsed: new Set(['fn:npu#0', 'fu:tfu0']), bodies: new Set() });
    expect(input.items.has('fu:tfu0')).toBe(false);
    expect(input.boxOfNode.slice(0, 3)).toEqual(['fn:npu#0', 'fn:npu#0', 'fn:npu#0']);
    const fused = graphLayoutInput(model, plan, { collapsed: new Set(['fu:tfu0']), bodies: new Set() });
    expect(fused.boxOfNode).toEqual(['n0', 'fu:tfu0', 'fu:tfu0', 'n3', 'n4']);
    expect(ids(fused.graph.boxes)).toEqual(['in:x', 'n0', 'fu:tfu0', 'n3', 'n4', 'out:y']);
  });

  it('shows the bodies of an If inside its box when asked, with their own edges', () => {
    const branch = (name: string) => irGraph(name).node('Neg', ['outer'], [`${name}_a`]).node('Abs', [`${name}_a`], [`${name}_out`]).output(`${name}_out`).graph();
    const model = inferShapes(
      irGraph()
        .input('cond', DT.BOOL, [])
        .input('x', DT.FLOAT, [2, 5])
        .node('Relu', ['x'], ['outer'])
        .node('If', ['cond'], ['y'], { then_branch: branch('then'), else_branch: branch('else') })
        .output('y')
        .model(),
    );
    const closed = graphLayoutInput(model, undefined, OPEN);
    expect(closed.items.get('n1')).toMatchObject({ bodies: 2, expanded: false });
    expect(closed.graph.boxes.find((b) => b.id === 'n1')!.children).toBeUndefined();
    const open = graphLayoutInput(model, undefined, { collapsed: new Set(), bodies: new Set(['n1']) });
    const ifBox = open.graph.boxes.find((b) => b.id === 'n1')!;
    expect(ids(ifBox.children)).toEqual(['n1/g0', 'n1/g1']);
    expect(ids(ifBox.children![0]!.children)).toEqual(['n1/g0/0', 'n1/g0/1']);
    expect(open.items.get('n1/g0')).toMatchObject({ kind: 'body', title: 'then', subtitle: '2 nodes' });
    expect(open.items.get('n1/g1/0')).toMatchObject({ kind: 'body-op', title: 'Neg' });
    expect(open.graph.links.map((l) => `${l.source}>${l.target}`)).toEqual(expect.arrayContaining(['n1/g0/0>n1/g0/1', 'n1/g1/0>n1/g1/1', 'n0>n1']));
    expect(open.boxOfNode).toEqual(['n0', 'n1']);
  });
});

describe('graphClusters', () => {
  it('has no clusters for a plan with one function (the whole model on one unit)', () => {
    const model = chain();
    expect(graphClusters(model, planWith(model, { functions: [['cpu#0', 'cpu', ['relu', 'sigmoid', 'tanh', 'add', 'neg']]] }))).toEqual([]);
  });

  it('leaves out a fusion unit spanning two functions or reusing a fused node, and names unnamed units by kind', () => {
    const model = chain();
    const plan = planWith(model, {
      functions: [['npu#0', 'npu', ['relu', 'sigmoid']], ['cpu#1', 'cpu', ['tanh', 'add', 'neg']]],
      fusion: [['across', 'tfu', ['sigmoid', 'tanh']], ['first', 'dw-pw', ['add', 'neg']], ['again', 'tfu', ['neg']]],
    });
    expect(graphClusters(model, plan).map((c) => [c.id, c.parent, c.nodes])).toEqual([
      ['fn:npu#0', undefined, [0, 1]],
      ['fn:cpu#1', undefined, [2, 3, 4]],
      ['fu:first', 'fn:cpu#1', [3, 4]],
    ]);
    const unnamed = { ...plan, functions: [], fusionUnits: [fusionUnit('', 'dw-pw', ['tanh', 'add'])] };
    expect(graphClusters(model, unnamed).map((c) => [c.id, c.label, c.parent])).toEqual([['fu:dw-pw-0', 'dw-pw-0', undefined]]);
  });
});

describe('aliasMarks', () => {
  it('marks a removable op and the Concat that merges its inputs, as the plan shares their bytes', () => {
    const model = inferShapes(
      irGraph()
        .input('x', DT.FLOAT, [1, 64])
        .initializer('w1', DT.FLOAT, [64, 64])
        .initializer('w2', DT.FLOAT, [64, 64])
        .node('MatMul', ['x', 'w1'], ['a'], {}, { name: 'left' })
        .node('MatMul', ['x', 'w2'], ['b'], {}, { name: 'right' })
        .node('Concat', ['a', 'b'], ['c'], { axis: 1 }, { name: 'concat' })
        .node('Flatten', ['c'], ['f'], { axis: 1 }, { name: 'flatten' })
        .node('Neg', ['f'], ['y'], {}, { name: 'neg' })
        .output('y')
        .model(),
    );
    const plan = planModel(model, presetTarget('cpu'));
    const rules = new Set(plan.buffers.flatMap((b) => (b.alias ? [b.alias.rule] : [])));
    expect(rules).toEqual(new Set(['concat', 'removable', 'in-place'])); // 256-byte inputs fit the 64-byte alignment
    const marks = aliasMarks(plan);
    expect(marks.get('concat')).toBe('merging');
    expect(marks.get('flatten')).toBe('removable');
    expect(marks.get('neg')).toBe('in-place');
    expect(marks.has('left')).toBe(false); // its output is a window of the Concat's: the Concat is marked
    const input = graphLayoutInput(model, plan, OPEN);
    expect(input.items.get('n2')?.alias).toBe('merging');
    expect(input.items.get('n3')?.alias).toBe('removable');
  });
});

describe('labels', () => {
  it('formats edge labels and shortens long names by their leading scopes', () => {
    const value = { name: 't', kind: 'activation', dtype: 1, dtypeName: 'float32', producer: 0, consumers: [] } as const;
    expect(edgeText([{ ...value, shape: [1, 64, 56, 56], bytes: 802816 }])).toBe('1×64×56×56 · 784 KiB');
    expect(edgeText([{ ...value, shape: undefined, bytes: undefined }])).toBe('? · ?');
    expect(edgeText([{ ...value, shape: [2], bytes: 8 }, { ...value, shape: undefined, bytes: undefined }])).toBe('2 tensors · ?');
    expect(graphLabel('model/encoder/layer_11/attention/self/query/MatMul', 20)).toBe('…/self/query/MatMul');
    expect(graphLabel('/model/layers.40/mlp/act_fn/Sigmoid')).toBe('…/layers.40/mlp/act_fn/Sigmoid');
    expect(graphLabel('short')).toBe('short');
  });
});

describe('a decoder with a KV cache', () => {
  const model = inferShapes(decodeOnnx(llamaModel({ ...LLAMA_80, layers: 3 })));
  const all = (boxes: readonly LayoutBox[]): LayoutBox[] => boxes.flatMap((b) => [b, ...all(b.children ?? [])]);

  it('folds each layer\'s past inputs into one box and its present outputs into another, inside the layer', () => {
    const input = graphLayoutInput(model, undefined, OPEN);
    const io = all(input.graph.boxes).filter((b) => input.items.get(b.id)?.kind === 'io');
    const kv = io.filter((b) => input.items.get(b.id)!.tensors !== undefined);
    expect(kv.map((b) => input.items.get(b.id)!.title).sort()).toEqual([0, 1, 2].flatMap((l) => [`past KV cache · layer ${l}`, `present KV cache · layer ${l}`]).sort());
    // Left as boxes of their own: the token ids, positions, mask and the logits.
    expect(io.length - kv.length).toBe(4);
    for (let l = 0; l < 3; l += 1) {
      const past = input.ioBoxes.get(`in:past_key_values.${l}.key`)!;
      expect(input.ioBoxes.get(`in:past_key_values.${l}.value`)).toBe(past);
      expect(input.items.get(past)!.tensors).toEqual([`past_key_values.${l}.key`, `past_key_values.${l}.value`]);
      expect(input.items.get(past)!.subtitle).toMatch(/^input · 2 tensors · /);
      const layer = input.graph.boxes.flatMap(function find(b): LayoutBox[] {
        return (b.children ?? []).some((c) => c.id === past) ? [b] : (b.children ?? []).flatMap(find);
      });
      expect(input.items.get(layer[0]!.id)!.cluster!.nodes.every((i) => model.nodes[i]!.name.startsWith(`/model/layers.${l}/`))).toBe(true);
    }
    // Every Concat that grows a cache reads from its layer's past box and writes to its present box.
    const concat = model.nodes.findIndex((n) => n.name === '/model/layers.1/self_attn/Concat_key');
    const box = input.boxOfNode[concat]!;
    expect(input.edges.has(`e:${input.ioBoxes.get('in:past_key_values.1.key')}>${box}`)).toBe(true);
    expect([...input.edges.values()].find((e) => e.source === box && e.target === input.ioBoxes.get('out:/model/layers.1/self_attn/Concat_key_out'))?.values).toEqual(['/model/layers.1/self_attn/Concat_key_out']);
  });

  it.runIf(existsSync(GPT2))('folds GPT-2\'s caches, read by fused Attention nodes outside any name scope, into a past and a present box per layer', () => {
    const gpt2 = inferShapes(decodeOnnx(new Uint8Array(readFileSync(GPT2))), { dims: { past_seq_len: 64 } });
    const input = graphLayoutInput(gpt2, undefined, OPEN);
    const kv = all(input.graph.boxes).filter((b) => input.items.get(b.id)?.tensors !== undefined);
    // five of each, told apart by their layer
    expect(kv.map((b) => input.items.get(b.id)!.title).sort()).toEqual([0, 1, 2, 3, 4].flatMap((l) => [`past KV cache · layer ${l}`, `present KV cache · layer ${l}`]).sort());
    for (let l = 0; l < 5; l += 1) {
      const past = input.ioBoxes.get(`in:past_${l}`)!;
      const present = input.ioBoxes.get(`out:present_${l}`)!;
      expect(input.items.get(past)!.tensors).toEqual([`past_${l}`]);
      expect(input.items.get(present)!.tensors).toEqual([`present_${l}`]);
      expect(input.items.get(past)!.subtitle).toBe('input · 1 tensor · 16.0 KiB');
      expect(input.items.get(past)!.title).toBe(`past KV cache · layer ${l}`);
      expect(input.items.get(present)!.title).toBe(`present KV cache · layer ${l}`);
      // the layer's attention reads its past box and writes its present box
      const attention = input.boxOfNode[gpt2.nodes.findIndex((n) => n.name === `GptAttention_${l}`)]!;
      expect(input.edges.has(`e:${past}>${attention}`)).toBe(true);
      expect(input.edges.has(`e:${attention}>${present}`)).toBe(true);
    }
  });

  it('reads the layer number of a cache tensor from its name', () => {
    expect(['past_0', 'present_4', 'past_key_values.3.key', '/model/layers.12/self_attn/Concat_key_out', 'cache-7', 'past_key_values_fp16.2.value'].map(kvLayerOf)).toEqual([0, 4, 3, 12, 7, 2]);
    expect(kvLayerOf('past_key')).toBeUndefined();
  });

  it('hides the folded boxes in a collapsed layer and still knows where they are', () => {
    const layer = graphLayoutInput(model, undefined, OPEN).clusters.find((c) => c.label.endsWith('layers.2') || c.label === 'layers.2')!;
    const input = graphLayoutInput(model, undefined, { ...OPEN, collapsed: new Set([layer.id]) });
    expect(input.ioBoxes.get('in:past_key_values.2.value')).toBe(layer.id);
    expect(input.ioBoxes.get('out:/model/layers.2/self_attn/Concat_value_out')).toBe(layer.id);
  });
});

describe('a decoder whose sequence length is read off a past key', () => {
  /** Two layers that grow their caches with Concat, and a mask subgraph that takes the past length from Shape(past_key_values.0.key), as onnxruntime-genai's exports do. */
  function decoder(): InferredModel {
    const g = irGraph().input('x', DT.FLOAT, [1, 4, 8]);
    for (let l = 0; l < 2; l += 1) {
      for (const half of ['key', 'value']) {
        g.input(`past_key_values.${l}.${half}`, DT.FLOAT, [1, 'past_sequence_length', 8]);
        g.node('Concat', [`past_key_values.${l}.${half}`, 'x'], [`present.${l}.${half}`], { axis: 1 }, { name: `/model/layers.${l}/attn/Concat_${half}` });
      }
    }
    g.node('Shape', ['past_key_values.0.key'], ['past_shape'], {}, { name: '/model/attn_mask_reformat/past_key_subgraph/Shape' });
    g.node('Cast', ['past_shape'], ['past_length'], { to: DT.FLOAT }, { name: '/model/attn_mask_reformat/past_key_subgraph/Cast' });
    for (let l = 0; l < 2; l += 1) for (const half of ['key', 'value']) g.output(`present.${l}.${half}`);
    return inferShapes(g.output('past_length').model(), { dims: { past_sequence_length: 3 } });
  }

  it('folds the past key the Shape reads into its layer\'s past box: one past and one present box per layer', () => {
    const model = decoder();
    const input = graphLayoutInput(model, undefined, OPEN);
    for (let l = 0; l < 2; l += 1) {
      const past = input.ioBoxes.get(`in:past_key_values.${l}.key`)!;
      expect(input.items.get(past)!.tensors).toEqual([`past_key_values.${l}.key`, `past_key_values.${l}.value`]);
      expect(input.items.get(input.ioBoxes.get(`out:present.${l}.key`)!)!.tensors).toEqual([`present.${l}.key`, `present.${l}.value`]);
    }
    // The Shape still reads the past key, from the layer's box.
    const shape = input.boxOfNode[model.nodes.findIndex((n) => n.opType === 'Shape')]!;
    expect(input.edges.has(`e:${input.ioBoxes.get('in:past_key_values.0.key')}>${shape}`)).toBe(true);
  });
});
