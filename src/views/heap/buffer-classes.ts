// The colour class of a buffer (activation, graph input or output, a decoder's
// KV cache, scratch, cache, copy, subgraph), its legend entry and its colour in
// the page's light palette: one source for the heap on screen, its legend, the
// live-bytes chart, the memory map and the SVG and PNG exports, so a graph
// output or a KV cache counts as the same kind in each. Plain data; no DOM.

import type { PlannedBuffer } from '../../planner/plan';

/** Colour classes of the diagram, in drawing order (aliases are drawn over their parents). */
export const KIND_CLASSES = ['activation', 'io', 'kv', 'scratch', 'cache', 'copy', 'subgraph'] as const;
/** One colour class. */
export type BufferClass = (typeof KIND_CLASSES)[number];

const CLASS_OF_KIND: Readonly<Record<PlannedBuffer['kind'], BufferClass>> = {
  activation: 'activation',
  input: 'io',
  output: 'io',
  scratch: 'scratch',
  cache: 'cache',
  copy: 'copy',
  subgraph: 'subgraph',
};

/** The class of buffer `b`: a graph input or output named in `kv` (kv-cache-names.ts) is KV cache, else by its kind. */
export function bufferClass(b: Pick<PlannedBuffer, 'kind' | 'name'>, kv: ReadonlySet<string>): BufferClass {
  return (b.kind === 'input' || b.kind === 'output') && kv.has(b.name) ? 'kv' : (CLASS_OF_KIND[b.kind] ?? 'activation');
}

/** A kind as the tables and the details write it: a KV cache tensor's input or output kind, then "KV cache" ("output · KV cache"); model state's kind, then "state" ("activation · state"). */
export function kindText(kind: string, kv: boolean, state = false): string {
  return kv ? `${kind} · KV cache` : state ? `${kind} · state` : kind;
}

/** The kinds live bytes are counted in (the live-bytes chart's rows, the memory map's parts): the colour classes, so a subgraph body's grey block is counted in a grey row of its own. */
export const LIVE_KINDS = KIND_CLASSES;
/** One kind of live bytes. */
export type LiveKind = (typeof LIVE_KINDS)[number];

/** The kind buffer `b` counts as in live bytes: its colour class (bufferClass). */
export function liveKind(b: Pick<PlannedBuffer, 'kind' | 'name'>, kv: ReadonlySet<string>): LiveKind {
  return bufferClass(b, kv);
}

/** Fill colour of each class in the page's light palette (heap.css's --heap-*), for drawings outside the page. */
export const CLASS_COLOURS: Readonly<Record<BufferClass, string>> = {
  activation: '#4a74ee',
  io: '#15a192',
  kv: '#8c6d1f',
  scratch: '#e08a1e',
  cache: '#b64fd0',
  copy: '#d8485a',
  subgraph: '#7b8796',
};

/** A legend entry of a class. */
export interface ClassLegendItem {
  readonly kind: BufferClass;
  readonly label: string;
  readonly title?: string; // what the class holds, when the label is not enough
}

/** The classes a legend names, in order; the KV cache only for a plan that holds one (see legendClasses). */
const CLASS_LEGEND: readonly ClassLegendItem[] = [
  { kind: 'activation', label: 'activation' },
  { kind: 'io', label: 'input / output' },
  { kind: 'kv', label: 'KV cache', title: "a decoder's past inputs and present outputs, kept for the whole run" },
  { kind: 'scratch', label: 'scratch' },
  { kind: 'cache', label: 'cache' },
  { kind: 'copy', label: 'copy', title: 'a copy at a compute-unit boundary or into a Concat' },
  { kind: 'subgraph', label: 'subgraph body', title: "an If, Loop or Scan body's tensors, planned as one block live while its node runs" },
];

/** The legend's classes: every one but the KV cache, which only a model with one shows. */
export function legendClasses(kv: boolean): readonly ClassLegendItem[] {
  return CLASS_LEGEND.filter((item) => item.kind !== 'kv' || kv);
}
