// What a drawn box of the graph is: its kind, text and what it stands for.
// Types only, shared by the boxes (layout/boxes.ts) and the layout input
// (layout/layout-input.ts) without either importing the other.

import type { AliasMark, GraphCluster } from './groups/clusters';

/** What a drawn box is. */
export type GraphItemKind = 'op' | 'io' | 'cluster' | 'collapsed' | 'body' | 'body-op';

/** A drawn box: its text and what it stands for. */
export interface GraphItem {
  readonly id: string;
  readonly kind: GraphItemKind;
  readonly title: string; // op type, cluster name, tensor name
  readonly subtitle: string; // node name, node count, 'input'
  readonly node: number | undefined; // model node index (op, and an op whose body is shown)
  readonly cluster: GraphCluster | undefined; // for 'cluster' and 'collapsed'
  readonly members: readonly number[]; // model node indices it stands for
  readonly alias: AliasMark | undefined;
  readonly bodies: number; // If/Loop/Scan bodies of the node (0 for others)
  readonly expanded: boolean; // a cluster, or an op whose bodies are shown
  readonly constants?: readonly string[]; // folded inputs of an op: weights and constants, as 'name shape · bytes'
  readonly heavy?: boolean; // a group writing a large share of the model's bytes
  readonly hint?: string; // a graph input's or output's quantization, shown on hover
  readonly tensors?: readonly string[]; // the graph inputs or outputs a folded box stands for (a decoder's KV cache)
}
