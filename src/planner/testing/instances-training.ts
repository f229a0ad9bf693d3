// Training-step traces shaped by real models, for benchmarks and scale tests:
// the buffers of one optimizer step of a Llama- or BERT-shaped transformer
// with gradient accumulation, sized from the model's real dimensions. Each
// micro-batch runs the forward pass, keeping what the backward pass reads,
// then the backward pass in reverse, freeing a layer's kept activations as
// its gradients are made; weight gradients accumulate over the micro-batches;
// the optimizer step ends the trace. Thousands of buffers are live at once
// (every layer's kept activations plus the accumulated gradients), sizes come
// in the few classes a model's shapes give, and lifetimes nest as forward and
// backward mirror each other. Depends only on planner types.

import type { PlacementProblem, PlanBuffer } from '../problem/problem';

/** The shape of a transformer training step. */
export interface TrainingShape {
  readonly name: string; // the buffers' name prefix
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly kvHeads: number; // grouped-query attention: K and V have kvHeads × hidden/heads columns
  readonly ffn: number;
  readonly gated: boolean; // SwiGLU (gate and up projections) as Llama, or one up projection as BERT
  readonly vocab: number;
  readonly batch: number; // sequences per micro-batch
  readonly seq: number;
  readonly bytes: number; // per element: 2 for bf16 activations
  readonly materializedScores: boolean; // attention scores and probabilities kept as [b, heads, s, s] (no fused attention kernel)
}

/** A Llama-shaped step (80 layers, GQA, SwiGLU; bf16), scaled down in batch and sequence so sizes stay realistic per token. */
export const LLAMA_TRAINING: TrainingShape = {
  name: 'llama',
  layers: 80,
  hidden: 8192,
  heads: 64,
  kvHeads: 8,
  ffn: 28672,
  gated: true,
  vocab: 32000,
  batch: 1,
  seq: 2048,
  bytes: 2,
  materializedScores: false,
};

/** A BERT-large-shaped step (24 layers, GELU FFN, attention scores materialized; fp16). */
export const BERT_TRAINING: TrainingShape = {
  name: 'bert',
  layers: 24,
  hidden: 1024,
  heads: 16,
  kvHeads: 16,
  ffn: 4096,
  gated: false,
  vocab: 30522,
  batch: 8,
  seq: 512,
  bytes: 2,
  materializedScores: true,
};

/** Builds the trace step by step: `open` starts a buffer now, `close` ends it at the current step. */
class Trace {
  readonly buffers: PlanBuffer[] = [];
  private readonly ends: number[] = [];
  step = 0;

  open(name: string, size: number): number {
    const id = this.buffers.length;
    this.buffers.push({ id, name, size, start: this.step, end: this.step + 1 });
    this.ends.push(-1);
    return id;
  }

  /** Ends buffer `id` after the current step. */
  close(id: number): void {
    this.ends[id] = this.step + 1;
  }

  tick(): void {
    this.step++;
  }

  problem(): PlacementProblem {
    const last = this.step + 1;
    return { buffers: this.buffers.map((b, id) => ({ ...b, end: Math.max(b.start + 1, this.ends[id]! < 0 ? last : this.ends[id]!) })) };
  }
}

/** One op: opens its outputs, ticks, and closes the temporaries it read last. */
function op(t: Trace, outputs: readonly [string, number][], freed: readonly number[] = []): number[] {
  const ids = outputs.map(([name, size]) => t.open(name, size));
  for (const id of freed) t.close(id);
  t.tick();
  return ids;
}

/** The parameters of one layer, by name and element count. */
function layerParams(s: TrainingShape): [string, number][] {
  const kv = (s.hidden / s.heads) * s.kvHeads;
  const ffnMats = s.gated ? [['gate', s.hidden * s.ffn], ['up', s.hidden * s.ffn], ['down', s.ffn * s.hidden]] : [['up', s.hidden * s.ffn], ['down', s.ffn * s.hidden]];
  return [
    ['q', s.hidden * s.hidden],
    ['k', s.hidden * kv],
    ['v', s.hidden * kv],
    ['o', s.hidden * s.hidden],
    ...(ffnMats as [string, number][]),
    ['norm1', s.hidden],
    ['norm2', s.hidden],
  ];
}

/**
 * The trace of one optimizer step of `shape` over `microBatches`
 * micro-batches: about microBatches × layers × (forward + backward ops)
 * buffers, plus the accumulated gradients and the optimizer's temporaries.
 */
export function trainingStepProblem(shape: TrainingShape, microBatches: number): PlacementProblem {
  const s = shape;
  const t = new Trace();
  const tokens = s.batch * s.seq;
  const act = tokens * s.hidden * s.bytes;
  const kvAct = tokens * (s.hidden / s.heads) * s.kvHeads * s.bytes;
  const ffnAct = tokens * s.ffn * s.bytes;
  const scores = s.batch * s.heads * s.seq * s.seq * s.bytes;
  const params = layerParams(s);
  const gradAccum: number[][] = [];
  for (let m = 0; m < microBatches; m++) {
    const p = `${s.name}.mb${m}`;
    // forward: what each layer keeps for its backward pass
    const kept: number[][] = [];
    let [x] = op(t, [[`${p}.embed`, act]]);
    for (let l = 0; l < s.layers; l++) {
      const q = `${p}.l${l}`;
      const [n1] = op(t, [[`${q}.norm1`, act]]);
      const [qq, kk, vv] = op(t, [[`${q}.q`, act], [`${q}.k`, kvAct], [`${q}.v`, kvAct]]);
      const attention: number[] = [];
      if (s.materializedScores) {
        const [sc] = op(t, [[`${q}.scores`, scores]]);
        const [pr] = op(t, [[`${q}.probs`, scores]], [sc!]);
        attention.push(pr!);
      } else {
        const [lse] = op(t, [[`${q}.lse`, s.batch * s.heads * s.seq * 4]]); // fused attention keeps the log-sum-exp
        attention.push(lse!);
      }
      const [ctx] = op(t, [[`${q}.ctx`, act]]);
      const [o] = op(t, [[`${q}.o`, act]]);
      const [r1] = op(t, [[`${q}.res1`, act]], [o!]);
      const [n2] = op(t, [[`${q}.norm2`, act]]);
      const ffnKept: number[] = [];
      if (s.gated) {
        const [g, u] = op(t, [[`${q}.gate`, ffnAct], [`${q}.up`, ffnAct]]);
        const [a] = op(t, [[`${q}.act`, ffnAct]]);
        ffnKept.push(g!, u!, a!);
      } else {
        const [u] = op(t, [[`${q}.up`, ffnAct]]);
        const [a] = op(t, [[`${q}.gelu`, ffnAct]]);
        ffnKept.push(u!, a!);
      }
      const [d] = op(t, [[`${q}.down`, act]]);
      const [r2] = op(t, [[`${q}.res2`, act]], [d!]);
      kept.push([x!, n1!, qq!, kk!, vv!, ...attention, ctx!, r1!, n2!, ...ffnKept]);
      x = r2;
    }
    const [nf] = op(t, [[`${p}.final_norm`, act]]);
    const [logits] = op(t, [[`${p}.logits`, tokens * s.vocab * s.bytes]]);
    const [loss] = op(t, [[`${p}.loss`, 4]], [logits!]);
    // backward: the gradient of the layer's output flows down; each layer frees what it kept
    let [dx] = op(t, [[`${p}.d_logits`, tokens * s.vocab * s.bytes]], [loss!, nf!]);
    [dx] = op(t, [[`${p}.d_final`, act]], [dx!, x!]);
    for (let l = s.layers - 1; l >= 0; l--) {
      const q = `${p}.l${l}`;
      const layerKept = kept[l]!;
      if (m === 0) gradAccum[l] = params.map(([name, n]) => t.open(`${s.name}.grad.l${l}.${name}`, n * 4)); // fp32 accumulators
      const [dDown] = op(t, [[`${q}.d_ffn`, ffnAct]]);
      const dUp = op(t, [[`${q}.d_up`, ffnAct], ...(s.gated ? ([[`${q}.d_gate`, ffnAct]] as [string, number][]) : [])], [dDown!]);
      const [wg] = op(t, [[`${q}.wgrad_ffn`, s.hidden * s.ffn * s.bytes]]); // a weight gradient before it is added to the accumulator
      t.close(wg!);
      const [dn2] = op(t, [[`${q}.d_norm2`, act]], dUp);
      const [dr1] = op(t, [[`${q}.d_res1`, act]], [dn2!]);
      const dScores = s.materializedScores ? op(t, [[`${q}.d_probs`, scores]]) : [];
      const [dq, dk, dv] = op(t, [[`${q}.d_q`, act], [`${q}.d_k`, kvAct], [`${q}.d_v`, kvAct]], dScores);
      const [wa] = op(t, [[`${q}.wgrad_attn`, s.hidden * s.hidden * s.bytes]], [dq!, dk!, dv!]);
      t.close(wa!);
      const [dn1] = op(t, [[`${q}.d_norm1`, act]], layerKept);
      const [dxNext] = op(t, [[`${q}.d_x`, act]], [dn1!, dr1!, dx!]);
      dx = dxNext;
    }
    op(t, [[`${p}.d_embed`, act]], [dx!]);
  }
  // optimizer: per parameter, Adam's update temporaries, then the accumulator is freed
  for (let l = 0; l < s.layers; l++) {
    params.forEach(([name, n], k) => {
      const q = `${s.name}.adam.l${l}.${name}`;
      const [upd] = op(t, [[`${q}.update`, n * 4]]);
      op(t, [[`${q}.scaled`, n * 4]], [upd!, gradAccum[l]![k]!]);
    });
  }
  return t.problem();
}

/** The micro-batch count that gives about `count` buffers for `shape`. */
export function microBatchesFor(shape: TrainingShape, count: number): number {
  const fixed = shape.layers * layerParams(shape).length * 3; // the accumulators and the optimizer's two temporaries per parameter
  const perMicroBatch = trainingStepProblem(shape, 1).buffers.length - fixed;
  return Math.max(1, Math.round((count - fixed) / Math.max(1, perMicroBatch)));
}
