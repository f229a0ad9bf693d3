// Memory sharing while building a problem (METHODS.md M1, operator kinds):
// removable ops alias their input, Split outputs are windows of the input,
// in-place element-wise ops reuse an input that is not read later, and Concat
// inputs are windows of the Concat output. Every refusal that costs a copy is
// a diagnostic saying why. Depends only on the model's IR types and the planner.
//
// - Nodes are visited in execution order, so a buffer's group is complete up
//   to the node being visited.
// - removable: the output aliases input 0 at offset 0 when both are run-time
//   tensors of equal size (Dropout only without a run-time training_mode);
//   Split outputs alias the input at their byte offsets when the split axis
//   has only 1s before it and every window starts aligned.
// - in-place: output 0 aliases the first input of its size whose bytes nobody
//   reads after this step, which overlaps no graph input or output, and whose
//   bytes the op does not also read through another input (a view of it).
// - merging (Concat): each input becomes a window of the output, in input
//   order, when every input is produced by a computing op, shares memory with
//   nothing yet, is not a graph input, and the windows are contiguous and aligned;
//   otherwise the Concat copies (its output a copy, unless it is a KV cache's
//   present, a graph output in its own right). An input made by another Concat (nested, as in
//   DenseNet) takes its own windows along when it lies inside no other buffer
//   and everything sharing its memory stays inside its window.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import type { BufferSpec, PlanDiagnostic, TensorBuffers } from './build-buffers';
import { AliasTracker } from './build-groups';
import { windowLayout, type WindowTensor } from './build-windows';
import { kvCaches, type KvCaches } from './kv-cache';
import { opKindOf, type OpKind } from './op-kinds';
import type { Schedule } from './schedule';

/** What the sharing rules read. */
export interface SharingContext {
  readonly graph: InferredGraph;
  readonly schedule: Schedule;
  readonly buffers: TensorBuffers;
  readonly kinds: Readonly<Record<string, OpKind>>;
  readonly alignment: number; // the region's
  readonly diagnostics: PlanDiagnostic[];
}

/** Applies the sharing rules to every scheduled node; returns the alias groups formed. */
export function applySharing(ctx: SharingContext): AliasTracker {
  const tracker = new AliasTracker();
  const values = new Map(ctx.graph.values.map((v) => [v.name, v]));
  const rules = new SharingRules(ctx, tracker, values, kvCaches(ctx.graph));
  ctx.schedule.order.forEach((index, step) => rules.apply(ctx.graph.nodes[index]!, step));
  return tracker;
}

class SharingRules {
  constructor(
    private readonly ctx: SharingContext,
    private readonly tracker: AliasTracker,
    private readonly values: ReadonlyMap<string, InferredValue>,
    private readonly caches: KvCaches,
  ) {}

  apply(node: InferredNode, step: number): void {
    const kind = opKindOf(node, this.ctx.kinds);
    if (kind === 'removable') {
      if (node.opType === 'Split' && node.domain === '') this.split(node);
      else this.removable(node);
    } else if (kind === 'in-place') {
      this.inPlace(node, step);
    } else if (kind === 'merging') {
      this.concat(node);
    }
  }

  private spec(name: string | undefined): BufferSpec | undefined {
    return name === undefined || name === '' ? undefined : this.ctx.buffers.byName.get(name);
  }

  /**
   * Marks `outputs` as copies and says why. A KV cache's present output stays
   * a graph output: the next run reads it as the past, so it lives to the end
   * for that reason, not because its Concat could not share memory.
   */
  private copy(node: InferredNode, outputs: readonly BufferSpec[], code: string, why: string): void {
    for (const out of outputs) if (!this.caches.byPresent.has(out.name)) out.kind = 'copy';
    this.ctx.diagnostics.push({ code, message: `${node.opType} '${node.name}' copies: ${why}`, node: node.name });
  }

  private removable(node: InferredNode): void {
    const x = this.spec(node.inputs[0]);
    const y = this.spec(node.outputs[0]);
    if (x === undefined || y === undefined || x === y || y.alias !== undefined) return;
    if (node.opType === 'Dropout' && this.spec(node.inputs[2]) !== undefined) {
      this.copy(node, [y], 'copy', 'its training_mode input is computed at run time');
    } else if (this.values.get(x.name)?.bytes === undefined || x.bytes !== y.bytes) {
      this.copy(node, [y], 'copy', `its output has ${y.bytes} bytes and its input ${x.bytes}`);
    } else {
      y.size = x.size;
      this.tracker.attach(y, x, 0, 'removable');
    }
  }

  private split(node: InferredNode): void {
    const x = this.spec(node.inputs[0]);
    const names = node.outputs.filter((n) => n !== '');
    const outputs = names.map((n) => this.spec(n)).filter((s): s is BufferSpec => s !== undefined);
    if (x === undefined || outputs.length === 0) return;
    if (outputs.length !== names.length || outputs.some((y) => y.alias !== undefined)) {
      this.copy(node, outputs, 'split-copy', 'not every output is a run-time tensor of its own');
      return;
    }
    const layout = windowLayout(this.tensor(x.name), names.map((n) => this.tensor(n)), this.ctx.alignment);
    if ('reason' in layout) {
      this.copy(node, outputs, 'split-copy', layout.reason);
      return;
    }
    outputs.forEach((y, i) => {
      y.size = y.bytes;
      this.tracker.attach(y, x, layout.offsets[i]!, 'window');
    });
  }

  private inPlace(node: InferredNode, step: number): void {
    const y = this.spec(node.outputs[0]);
    if (y === undefined || y.alias !== undefined || y.bytes === 0) return;
    const inputs = [...new Set(node.inputs)].map((name) => this.spec(name)).filter((x): x is BufferSpec => x !== undefined);
    for (const x of inputs) {
      if (x === y || x.bytes !== y.bytes || !this.reusable(x, step)) continue;
      if (inputs.some((other) => other !== x && this.overlapping(x, other))) continue; // read through another input while written
      y.size = x.size;
      this.tracker.attach(y, x, 0, 'in-place');
      return;
    }
  }

  /** True when no byte of `x` is read after `step` or belongs to a graph input or output. */
  private reusable(x: BufferSpec, step: number): boolean {
    if (this.values.get(x.name)?.bytes === undefined) return false;
    const rel = this.tracker.relOfSpec(x);
    return this.tracker.readAfter(x, step).every((spec) => {
      const at = this.tracker.relOfSpec(spec);
      return !(at < rel + x.size && rel < at + spec.size);
    });
  }

  /** True when two buffers share some bytes on purpose (one alias group, overlapping ranges). */
  private overlapping(a: BufferSpec, b: BufferSpec): boolean {
    const ra = this.tracker.rootOf(a);
    const rb = this.tracker.rootOf(b);
    return ra.root === rb.root && ra.rel < rb.rel + b.size && rb.rel < ra.rel + a.size;
  }

  private concat(node: InferredNode): void {
    const out = this.spec(node.outputs[0]);
    if (out === undefined || out.alias !== undefined) return;
    const names = node.inputs.filter((n) => n !== '');
    const seen = new Set<string>();
    let why: string | undefined;
    for (const name of names) {
      why = this.windowRefusal(name, seen.has(name));
      if (why !== undefined) break;
      seen.add(name);
    }
    if (why !== undefined) {
      this.copy(node, [out], 'concat-copy', why);
      return;
    }
    const layout = windowLayout(this.tensor(out.name), names.map((n) => this.tensor(n)), this.ctx.alignment);
    const misfit = 'reason' in layout ? layout.reason : this.nestedMisfit(names, layout.offsets, out.size);
    if ('reason' in layout || misfit !== undefined) {
      this.copy(node, [out], 'concat-copy', misfit ?? '');
      return;
    }
    const { offsets } = layout;
    names.forEach((name, i) => {
      const x = this.spec(name)!;
      x.size = x.bytes;
      this.tracker.attach(x, out, offsets[i]!, 'concat');
    });
  }

  /** Why a nested input's group would spill out of its window, or undefined when every group fits. */
  private nestedMisfit(names: readonly string[], offsets: readonly number[], outSize: number): string | undefined {
    for (let i = 0; i < names.length; i++) {
      const x = this.spec(names[i])!;
      const room = (offsets[i + 1] ?? outSize) - offsets[i]!;
      if (this.tracker.reachOf(x) > room) return `a buffer sharing the memory of input "${x.name}" would reach past its window`;
    }
    return undefined;
  }

  /**
   * Why a Concat input cannot be a window of the output, or undefined when it
   * can. The output of an inner Concat may be one with its own windows inside
   * (a DenseNet chain then shares one growing buffer) when no other buffer
   * holds it.
   */
  private windowRefusal(name: string, repeated: boolean): string | undefined {
    const x = this.spec(name);
    if (x === undefined) return `input "${name}" is a weight or constant, not a run-time tensor`;
    if (repeated) return `input "${name}" appears more than once`;
    if (x.kind === 'input') return `input "${name}" is a graph input`;
    if (x.state === true) return `input "${name}" is model state kept between runs`;
    const producer = this.values.get(name)?.producer;
    const node = producer === undefined ? undefined : this.ctx.graph.nodes[producer];
    const kind = node === undefined ? undefined : opKindOf(node, this.ctx.kinds);
    if (node !== undefined && kind === 'removable') {
      return `input "${name}" is produced by ${node.opType} '${node.name}', a ${kind} op that computes nothing`;
    }
    if (kind === 'merging') {
      if (x.alias !== undefined) return `input "${name}", the output of ${node!.opType} '${node!.name}', already lies inside another buffer`;
      return undefined;
    }
    if (!this.tracker.isAlone(x)) return `input "${name}" already shares memory with another buffer`;
    return undefined;
  }

  private tensor(name: string): WindowTensor {
    const value = this.values.get(name);
    return { name, shape: value?.shape, bytes: value?.bytes };
  }
}
