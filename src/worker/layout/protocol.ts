// The messages between the page and the graph layout worker: a graph of boxes
// (nested for clusters) and edges in, positions out. Plain, structured-cloneable
// data; separate from the model worker's protocol. No DOM, no UI libraries.

/** A box to place; `children` makes it a cluster that encloses them. */
export interface LayoutBox {
  readonly id: string;
  readonly width: number; // of a leaf; a cluster is sized to its children
  readonly height: number;
  readonly children?: readonly LayoutBox[];
  readonly padTop?: number; // room for a cluster's title
}

/** An edge between two boxes (at any depth); `label` reserves room for its text. */
export interface LayoutLink {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly label?: { readonly text: string; readonly width: number; readonly height: number };
}

/** The graph to lay out, top to bottom. */
export interface LayoutGraph {
  readonly boxes: readonly LayoutBox[];
  readonly links: readonly LayoutLink[];
}

/** Which layout to use: ELK's layered algorithm, the bounded layered layout, the simple fallback, or by size ('auto'). */
export type LayoutEngine = 'elk' | 'layered' | 'simple' | 'auto';

/** A placed box, in absolute coordinates. */
export interface PlacedBox {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A routed edge: a polyline (x0, y0, x1, y1, ...) and where its label goes. */
export interface PlacedLink {
  readonly id: string;
  readonly points: readonly number[];
  readonly labelX: number | undefined; // top-left of the label box
  readonly labelY: number | undefined;
}

/** The laid-out graph. */
export interface GraphPlacement {
  readonly boxes: readonly PlacedBox[];
  readonly links: readonly PlacedLink[];
  readonly width: number;
  readonly height: number;
  readonly engine: 'elk' | 'layered' | 'simple'; // the engine that made it
  readonly ms: number; // time spent laying out
  readonly note?: string; // why the engine is not the one asked for
}

/** Lay out `graph`. */
export interface LayoutRequest {
  readonly type: 'layout';
  readonly id: number;
  readonly graph: LayoutGraph;
  readonly engine: LayoutEngine;
}

/** The answer to a layout request: the placement, or why there is none. */
export type LayoutResponse =
  | { readonly type: 'placed'; readonly id: number; readonly placement: GraphPlacement; readonly final: boolean } // final: false for a preview
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
