// Writes a Llama-shaped decoder the way optimum exports it: node names are
// module paths (`/model/layers.3/self_attn/q_proj/MatMul`), each layer has a
// decomposed RMSNorm, rotary embedding, grouped-query attention over a KV cache
// (past_key_values.N.key/value in, present.N.key/value out) and a SwiGLU MLP;
// reshape shapes come from Constant nodes. Small hidden sizes keep the file
// small; the structure is what a graph view has to cope with. The weights are
// zeros in the file, or, as exports of large models keep them, external data
// in a file that is never written. Test utility.

import { GraphBuilder } from './onnx-writer';

/** The decoder's size. */
export interface LlamaShape {
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly ffn: number;
  readonly vocab: number;
}

/** 80 layers (about 5,000 nodes), as a 70B Llama has, with small widths. */
export const LLAMA_80: LlamaShape = { layers: 80, hidden: 64, heads: 8, kvHeads: 2, ffn: 172, vocab: 256 };

/** Options of llamaModel. */
export interface LlamaOptions {
  /** Weights as external data in this file (never written) instead of zeros in the model. */
  readonly externalWeights?: string;
}

/** Writes the decoder; see the module header. */
export function llamaModel(shape: LlamaShape = LLAMA_80, options: LlamaOptions = {}): Uint8Array {
  const g = new GraphBuilder('llama');
  const w = new LlamaWriter(g, shape, options.externalWeights);
  let x = g.node('Gather', [w.weight('model.embed_tokens.weight', [shape.vocab, shape.hidden]), g.input('input_ids', 'int64', ['batch', 'seq'])], { axis: 0 }, { name: '/model/embed_tokens/Gather' });
  const positions = g.input('position_ids', 'int64', ['batch', 'seq']);
  const mask = w.attentionMask(g.input('attention_mask', 'int64', ['batch', 'total']));
  const rotary = w.rotaryTables(positions);
  for (let l = 0; l < shape.layers; l += 1) x = w.layer(x, l, rotary, mask);
  x = w.rmsNorm(x, '/model/norm', 'model.norm.weight');
  const logits = g.node('MatMul', [x, w.weight('lm_head.weight', [shape.hidden, shape.vocab])], {}, { name: '/lm_head/MatMul' });
  g.output(logits, 'float16', ['batch', 'seq', shape.vocab]);
  return g.toBytes({ opset: 17 });
}

/** The rotary tables every layer multiplies by. */
interface Rotary {
  readonly cos: string;
  readonly sin: string;
}

class LlamaWriter {
  private readonly headDim: number;
  private offset = 0; // where the next weight starts in the external data file

  constructor(
    private readonly g: GraphBuilder,
    private readonly shape: LlamaShape,
    private readonly external: string | undefined,
  ) {
    this.headDim = shape.hidden / shape.heads;
  }

  /** A float16 weight: zeros in the file, or the next range of the external data file. */
  weight(name: string, dims: readonly number[]): string {
    if (this.external === undefined) return this.g.initializer(name, 'float16', dims);
    const length = dims.reduce((n, d) => n * d, 2);
    const external = { location: this.external, offset: this.offset, length };
    this.offset += length;
    return this.g.initializer(name, 'float16', dims, undefined, { external });
  }

  /** The additive mask from the 0/1 attention mask. */
  attentionMask(mask: string): string {
    const { g } = this;
    const p = '/model/attn_mask_reformat';
    const u = g.node('Unsqueeze', [mask, this.ints(`${p}/axes`, [1, 2])], {}, { name: `${p}/Unsqueeze` });
    const f = g.node('Cast', [u], { to: 10 }, { name: `${p}/Cast` });
    const inv = g.node('Sub', [this.half(`${p}/one`, 1), f], {}, { name: `${p}/Sub` });
    return g.node('Mul', [inv, this.half(`${p}/min`, -65504)], {}, { name: `${p}/Mul` });
  }

  /** cos and sin of every position, gathered once for all layers (optimum's /model/rotary_emb). */
  rotaryTables(positions: string): Rotary {
    const { g, headDim } = this;
    const p = '/model/rotary_emb';
    const table = (name: string): string => {
      const t = g.node('Gather', [this.weight(`model.rotary_emb.${name}_cached`, [512, headDim]), positions], { axis: 0 }, { name: `${p}/Gather_${name}` });
      return g.node('Unsqueeze', [t, this.ints(`${p}/${name}_axes`, [1])], {}, { name: `${p}/Unsqueeze_${name}` });
    };
    return { cos: table('cos'), sin: table('sin') };
  }

  layer(x: string, l: number, rotary: Rotary, mask: string): string {
    const p = `/model/layers.${l}`;
    const h = this.rmsNorm(x, `${p}/input_layernorm`, `model.layers.${l}.input_layernorm.weight`);
    const attn = this.attention(h, l, rotary, mask);
    const r = this.g.node('Add', [x, attn], {}, { name: `${p}/Add` });
    const h2 = this.rmsNorm(r, `${p}/post_attention_layernorm`, `model.layers.${l}.post_attention_layernorm.weight`);
    return this.g.node('Add', [r, this.mlp(h2, l)], {}, { name: `${p}/Add_1` });
  }

  /** RMSNorm as exporters decompose it: Pow, ReduceMean, Add, Sqrt, Div, Mul, Mul. */
  rmsNorm(x: string, p: string, weight: string): string {
    const { g } = this;
    const sq = g.node('Pow', [x, this.half(`${p}/two`, 2)], {}, { name: `${p}/Pow` });
    const mean = g.node('ReduceMean', [sq], { axes: [-1], keepdims: 1 }, { name: `${p}/ReduceMean` });
    const eps = g.node('Add', [mean, this.half(`${p}/eps`, 1e-5)], {}, { name: `${p}/Add` });
    const root = g.node('Sqrt', [eps], {}, { name: `${p}/Sqrt` });
    const inv = g.node('Div', [this.half(`${p}/one`, 1), root], {}, { name: `${p}/Div` });
    const y = g.node('Mul', [x, inv], {}, { name: `${p}/Mul` });
    return g.node('Mul', [this.weight(weight, [this.shape.hidden]), y], {}, { name: `${p}/Mul_1` });
  }

  private attention(h: string, l: number, rotary: Rotary, mask: string): string {
    const { g, shape, headDim } = this;
    const p = `/model/layers.${l}/self_attn`;
    const proj = (name: string, heads: number): string => {
      const m = g.node('MatMul', [h, this.weight(`model.layers.${l}.self_attn.${name}.weight`, [shape.hidden, heads * headDim])], {}, { name: `${p}/${name}/MatMul` });
      const r = g.node('Reshape', [m, this.ints(`${p}/${name}/shape`, [0, 0, heads, headDim])], {}, { name: `${p}/Reshape_${name}` });
      return g.node('Transpose', [r], { perm: [0, 2, 1, 3] }, { name: `${p}/Transpose_${name}` });
    };
    const q = this.rotate(proj('q_proj', shape.heads), `${p}/rotary_q`, rotary);
    const k = this.rotate(proj('k_proj', shape.kvHeads), `${p}/rotary_k`, rotary);
    const v = proj('v_proj', shape.kvHeads);
    const cache = (kind: 'key' | 'value', fresh: string): string => {
      const past = g.input(`past_key_values.${l}.${kind}`, 'float16', ['batch', shape.kvHeads, 'past', headDim]);
      const all = g.node('Concat', [past, fresh], { axis: 2 }, { name: `${p}/Concat_${kind}` });
      g.output(all, 'float16');
      return this.repeatKv(all, `${p}/repeat_${kind}`);
    };
    const keys = cache('key', k);
    const values = cache('value', v);
    const kt = g.node('Transpose', [keys], { perm: [0, 1, 3, 2] }, { name: `${p}/Transpose_kt` });
    const scores = g.node('MatMul', [q, kt], {}, { name: `${p}/MatMul` });
    const scaled = g.node('Div', [scores, this.half(`${p}/scale`, Math.sqrt(headDim))], {}, { name: `${p}/Div` });
    const masked = g.node('Add', [scaled, mask], {}, { name: `${p}/Add` });
    const probs = g.node('Softmax', [masked], { axis: -1 }, { name: `${p}/Softmax` });
    const ctx = g.node('MatMul', [probs, values], {}, { name: `${p}/MatMul_1` });
    const t = g.node('Transpose', [ctx], { perm: [0, 2, 1, 3] }, { name: `${p}/Transpose_out` });
    const r = g.node('Reshape', [t, this.ints(`${p}/out_shape`, [0, 0, shape.hidden])], {}, { name: `${p}/Reshape_out` });
    return g.node('MatMul', [r, this.weight(`model.layers.${l}.self_attn.o_proj.weight`, [shape.hidden, shape.hidden])], {}, { name: `${p}/o_proj/MatMul` });
  }

  /** Rotary embedding: rotate_half by Slice, Neg and Concat, then x·cos + rotate_half(x)·sin. */
  private rotate(x: string, p: string, { cos, sin }: Rotary): string {
    const { g, headDim } = this;
    const half = headDim / 2;
    const x1 = g.node('Slice', [x, this.ints(`${p}/s0`, [0]), this.ints(`${p}/e0`, [half]), this.ints(`${p}/a0`, [-1])], {}, { name: `${p}/Slice` });
    const x2 = g.node('Slice', [x, this.ints(`${p}/s1`, [half]), this.ints(`${p}/e1`, [headDim]), this.ints(`${p}/a1`, [-1])], {}, { name: `${p}/Slice_1` });
    const rotated = g.node('Concat', [g.node('Neg', [x2], {}, { name: `${p}/Neg` }), x1], { axis: -1 }, { name: `${p}/Concat` });
    const a = g.node('Mul', [x, cos], {}, { name: `${p}/Mul` });
    const b = g.node('Mul', [rotated, sin], {}, { name: `${p}/Mul_1` });
    return g.node('Add', [a, b], {}, { name: `${p}/Add` });
  }

  /** Grouped-query attention: each KV head repeated for its query heads (Unsqueeze, Expand by broadcasting, Reshape). */
  private repeatKv(x: string, p: string): string {
    const { g, shape, headDim } = this;
    const groups = shape.heads / shape.kvHeads;
    const u = g.node('Unsqueeze', [x, this.ints(`${p}/axes`, [2])], {}, { name: `${p}/Unsqueeze` });
    const e = g.node('Expand', [u, this.ints(`${p}/reps`, [1, 1, groups, 1, 1])], {}, { name: `${p}/Expand` });
    return g.node('Reshape', [e, this.ints(`${p}/shape`, [0, shape.heads, -1, headDim])], {}, { name: `${p}/Reshape` });
  }

  private mlp(h: string, l: number): string {
    const { g, shape } = this;
    const p = `/model/layers.${l}/mlp`;
    const proj = (name: string, rows: number, cols: number, input: string): string =>
      g.node('MatMul', [input, this.weight(`model.layers.${l}.mlp.${name}.weight`, [rows, cols])], {}, { name: `${p}/${name}/MatMul` });
    const gate = proj('gate_proj', shape.hidden, shape.ffn, h);
    const silu = g.node('Mul', [gate, g.node('Sigmoid', [gate], {}, { name: `${p}/act_fn/Sigmoid` })], {}, { name: `${p}/act_fn/Mul` });
    const up = proj('up_proj', shape.hidden, shape.ffn, h);
    const both = g.node('Mul', [silu, up], {}, { name: `${p}/Mul` });
    return proj('down_proj', shape.ffn, shape.hidden, both);
  }

  /** An int64 Constant node, as exporters write reshape shapes and axes. */
  private ints(name: string, values: readonly number[]): string {
    return this.g.constant('int64', [values.length], values, { name: `${name}/Constant` });
  }

  /** A float16 scalar Constant node. */
  private half(name: string, value: number): string {
    return this.g.constant('float16', [], [value], { name: `${name}/Constant` });
  }
}
