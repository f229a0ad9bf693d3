// The graph pane: the model graph laid out off the main thread, its toolbar
// (search with previous/next, fit, collapse/expand of clusters, layout status)
// and the selection wiring: clicking a node selects it in every view; the
// heap's buffer or step selection emphasizes the graph's nodes and brings them
// into view.

import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { formatCount } from '../../shared/format';
import { useActions, useAppStore } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import type { Selection } from '../../store/state';
import { cachedHeapData } from '../heap/heap-panel';
import { graphEmphasis } from '../selection';
import type { GraphHandlers, GraphMarks, NodeFacts } from './draw-graph';
import type { GraphItem, GraphLayoutInput, GraphToggles } from './graph-layout-input';
import { GraphSearch } from './graph-search-box';
import { GraphView, type GraphViewHandle } from './graph-view';
import { useGraphLayout } from './use-graph-layout';
import './graph.css';

/** The graph pane. */
export function GraphPanel() {
  const model = useAppStore((s) => s.model?.inferred);
  return (
    <section className="pane graph-pane" aria-labelledby="graph-title" data-testid="graph-pane">
      {model === undefined ? <Toolbar /> : <GraphPane key={modelKey(model)} model={model} />}
    </section>
  );
}

const keys = new WeakMap<InferredModel, number>();
let nextKey = 1;
function modelKey(model: InferredModel): number {
  let key = keys.get(model);
  if (key === undefined) {
    key = nextKey;
    nextKey += 1;
    keys.set(model, key);
  }
  return key;
}

function Toolbar({ children }: { readonly children?: ReactNode }) {
  return (
    <div className="pane-toolbar graph-toolbar">
      <h2 id="graph-title" className="pane-title">
        Graph
      </h2>
      {children}
    </div>
  );
}

const NO_TOGGLES: GraphToggles = { collapsed: new Set(), bodies: new Set() };

/** The graph of one model (remounted for another model, so toggles and search start afresh). */
function GraphPane({ model }: { readonly model: InferredModel }) {
  const plan = useAppStore(selectPlan);
  const selection = useAppStore((s) => s.selection);
  const { select } = useActions();
  const [toggles, setToggles] = useState<GraphToggles>(NO_TOGGLES);
  const [anchor, setAnchor] = useState<string | undefined>(undefined);
  const layout = useGraphLayout(model, plan, toggles);
  const view = useRef<GraphViewHandle>(null);
  const shown = layout.shown;

  const toggle = useCallback((kind: keyof GraphToggles, id: string) => {
    setAnchor(id);
    setToggles((t) => {
      const next = new Set(t[kind]);
      if (!next.delete(id)) next.add(id);
      return { ...t, [kind]: next };
    });
  }, []);

  const handlers = useMemo<GraphHandlers>(
    () => ({
      activate: (item: GraphItem) => {
        if (item.kind === 'cluster' || item.kind === 'collapsed') toggle('collapsed', item.id);
        else if (item.node !== undefined) select({ kind: 'node', node: model.nodes[item.node]!.name });
      },
      toggleBodies: (item: GraphItem) => toggle('bodies', item.id),
      focusItem: (id: string) => view.current?.reveal(id, false),
    }),
    [model, select, toggle],
  );

  const facts = useMemo(() => nodeFacts(model, plan), [model, plan]);
  const [search, setSearch] = useState<{ boxes: readonly string[]; current: number | undefined }>({ boxes: [], current: undefined });
  const marks = useMarks(model, plan, selection, shown?.input, search);
  const focus = marks.focus;
  const ready = shown !== undefined;
  useEffect(() => {
    if (focus !== undefined && ready) view.current?.reveal(focus, false);
  }, [focus, ready]);

  const clusters = layout.input.clusters;
  const setAll = (collapse: boolean): void => {
    setAnchor(undefined);
    setToggles((t) => ({ ...t, collapsed: new Set(collapse ? clusters.filter((c) => c.parent === undefined).map((c) => c.id) : []) }));
  };

  return (
    <>
      <Toolbar>
        <GraphSearch
          input={shown?.input}
          model={model}
          onChange={(boxes, current) => {
            setSearch({ boxes, current });
            const id = current === undefined ? undefined : boxes[current];
            if (id !== undefined) view.current?.reveal(id, true);
          }}
        />
        <div className="graph-actions">
          {clusters.length > 0 && (
            <>
              <button type="button" className="button button-small" onClick={() => setAll(true)} data-testid="graph-collapse-all">
                Collapse all
              </button>
              <button type="button" className="button button-small" onClick={() => setAll(false)} data-testid="graph-expand-all">
                Expand all
              </button>
            </>
          )}
          <button type="button" className="button button-small" onClick={() => view.current?.fit()} title="Fit the whole graph (0)" data-testid="graph-fit">
            Fit
          </button>
        </div>
      </Toolbar>
      <LayoutStatus layout={layout} nodes={model.nodes.length} />
      {shown !== undefined && (
        <GraphView handle={view} input={shown.input} placement={shown.placement} facts={facts} marks={marks.marks} handlers={handlers} anchor={anchor} />
      )}
    </>
  );
}

function LayoutStatus({ layout, nodes }: { readonly layout: ReturnType<typeof useGraphLayout>; readonly nodes: number }) {
  if (layout.status === 'failed') return <p className="pane-empty" role="alert">The graph could not be laid out: {layout.message}</p>;
  if (layout.status === 'busy')
    return (
      <div className="graph-status" data-testid="graph-status" data-status="busy">
        <div className="progress-track progress-indeterminate graph-progress" role="progressbar" aria-label="Laying out the graph">
          <div className="progress-fill" />
        </div>
        <span>
          {layout.shown?.input === layout.input && layout.shown.placement.engine === 'simple'
            ? `Simple layout shown; laying out ${formatCount(nodes)} nodes with ELK…`
            : `Laying out ${formatCount(nodes)} nodes…`}
        </span>
      </div>
    );
  const p = layout.shown.placement;
  return (
    <div className="graph-status" data-testid="graph-status" data-status="ready">
      <span title={p.note}>
        {formatCount(nodes)} nodes · {p.engine === 'elk' ? 'ELK layered' : p.note !== undefined ? 'simple layered (ELK failed)' : 'simple layered (large graph)'} ·{' '}
        {p.ms < 1000 ? `${Math.round(p.ms)} ms` : `${(p.ms / 1000).toFixed(1)} s`}
      </span>
      <span className="graph-legend" aria-label="Legend">
        <span className="graph-key" title="Removable or in-place op: its output lives in its input's bytes">
          alias
        </span>
        <span className="graph-key graph-key-merge" title="Concat whose inputs are written into its output's bytes">
          merge
        </span>
      </span>
    </div>
  );
}

/** The buffers each node owns and each node's outputs, for the drawing's data attributes. */
function nodeFacts(model: InferredModel, plan: ModelPlan | undefined): NodeFacts {
  const buffers = new Map<string, number[]>();
  plan?.buffers.forEach((b, i) => {
    if (b.node === undefined) return;
    const list = buffers.get(b.node);
    if (list === undefined) buffers.set(b.node, [i]);
    else list.push(i);
  });
  return { buffers, outputs: model.nodes.map((n) => n.outputs) };
}

/** The drawing's marks for the selection and the search, and the box to bring into view. */
function useMarks(
  model: InferredModel,
  plan: ModelPlan | undefined,
  selection: Selection | undefined,
  input: GraphLayoutInput | undefined,
  search: { boxes: readonly string[]; current: number | undefined },
): { marks: GraphMarks; focus: string | undefined } {
  return useMemo(() => {
    const data = plan === undefined ? undefined : cachedHeapData(plan).data;
    const emphasis = graphEmphasis(model, data, selection);
    const box = (i: number): string | undefined => input?.boxOfNode[i];
    const emphasized = new Set([...emphasis.nodes].flatMap((i) => box(i) ?? []));
    const values = new Set<string>();
    if (selection?.kind === 'buffer') {
      const at = data?.indexOfId.get(selection.buffer);
      const name = at === undefined ? undefined : data?.plan.buffers[at]?.name;
      if (name !== undefined) values.add(name);
    } else if (emphasis.focus !== undefined) for (const v of model.nodes[emphasis.focus]?.outputs ?? []) values.add(v);
    const current = search.current === undefined ? undefined : search.boxes[search.current];
    const marks: GraphMarks = { emphasized, values, matches: new Set(search.boxes), current };
    return { marks, focus: emphasis.focus === undefined ? undefined : box(emphasis.focus) };
  }, [model, plan, selection, input, search]);
}
