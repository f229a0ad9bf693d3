// Where a subgraph sits, for the messages of the decoder and the graph checks:
// " in subgraph 'body' of node 'loop'", nested levels innermost first. Subgraphs
// nest up to 64 deep, and 64 levels of names are a page, so past two levels a
// message names the innermost, the depth and the outermost. No DOM.

/** Where a graph sits among a model's subgraphs. */
export interface GraphWhere {
  readonly text: string; // appended to a message: '' for the main graph
  readonly depth: number; // 0 for the main graph
  readonly outermost: string; // the level of the main graph's subgraph that holds this one
}

/** The main graph. */
export const MAIN_GRAPH: GraphWhere = { text: '', depth: 0, outermost: '' };

/** The place one level inside `outer`; `level` reads " in subgraph 'b' of node 'n'" with its names cut by shortName. */
export function nestedWhere(outer: GraphWhere, level: string): GraphWhere {
  const depth = outer.depth + 1;
  const outermost = depth === 1 ? level : outer.outermost;
  const text = depth <= 2 ? `${level}${outer.text}` : `${level}, ${depth} subgraphs deep${outermost}`;
  return { text, depth, outermost };
}
