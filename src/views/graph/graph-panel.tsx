// The graph pane: the model graph laid out off the main thread, its one-row
// toolbar (search with previous/next that opens, selects and shows each match;
// a menu to collapse or expand every group and show constants; fit), layout
// status, a skip link to the heap, and the selection wiring:
// clicking a node selects it in every view (a graph input's or output's box,
// its tensor's buffer, as Find does), Escape clears it; the heap's buffer
// or step selection emphasizes the graph's nodes and brings them into view.

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { useActions, useAppStore, useAppStoreApi } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import type { GroupView, Selection } from '../../store/state';
import { cachedHeapData } from '../heap/heap-panel';
import { graphEmphasis, ioBoxSelection } from '../selection';
import type { GraphHandlers, GraphMarks, NodeFacts } from './draw/draw-graph';
import { GraphActions } from './graph-actions';
import { firstCollapsed, foldedNodes, graphGroups } from './groups/groups';
import { collapsedIds, collapsedOfView, groupsNotInGraph, viewOfCollapsed } from './groups/group-view';
import type { GraphCluster } from './groups/clusters';
import type { GraphItem, GraphLayoutInput, GraphToggles } from './layout/layout-input';
import { matchBox } from './search/search';
import { GraphSearch, type GraphSearchHandle } from './search/search-box';
import { useStepToMatch, type SearchState } from './search/search-step';
import { LayoutStatus, useReportPending } from './graph-status';
import { GraphView, type GraphViewHandle } from './view/graph-view';
import { useGraphLayout, warmGraphLayout } from './layout/use-graph-layout';
import { warnLeftOut } from '../../store/left-out-warnings';
import './graph.css';

/** The graph pane. */
export function GraphPanel() {
  const model = useAppStore((s) => s.model?.inferred);
  const opening = useAppStore((s) => s.model?.opening);
  useEffect(warmGraphLayout, []);
  // One pane per opening: a re-inference (a new dim) keeps the camera, groups and search; another file starts afresh.
  return (
    <section id="graph-pane" className="pane graph-pane" aria-labelledby="graph-title" data-testid="graph-pane">
      {model === undefined ? <Toolbar /> : <GraphPane key={opening} model={model} />}
    </section>
  );
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

/** The graph of one opened model, through its re-inferences (remounted for another file, so toggles and search start afresh). */
function GraphPane({ model }: { readonly model: InferredModel }) {
  const plan = useAppStore(selectPlan);
  const selection = useAppStore((s) => s.selection);
  const planResult = useAppStore((s) => s.model?.plan);
  const { select, setGraphDraw } = useActions();
  const start = useStartingGroups(model, plan);
  const [toggles, setToggles] = useState<GraphToggles>(() => ({ collapsed: start.collapsed, bodies: new Set(), constants: false }));
  const [anchor, setAnchor] = useState<string | undefined>(undefined);
  // A re-inference's layout keeps the camera; only a toggle's re-layout brings its group into view.
  const [anchored, setAnchored] = useState(model);
  if (anchored !== model) {
    setAnchored(model);
    setAnchor(undefined);
  }
  const layout = useGraphLayout(model, plan, toggles);
  useReportGroups(model, start.first, toggles.collapsed, layout.input.clusters);
  const view = useRef<GraphViewHandle>(null);
  const shown = layout.shown;
  useReportPending(model, layout);
  // When the plan reached the screen: a layout effect, so it is set before the view's effects report the drawing.
  const planAt = useRef(0);
  useLayoutEffect(() => {
    planAt.current = planResult === undefined ? 0 : performance.now();
  }, [planResult]);
  const final = layout.status === 'ready' ? layout.shown.placement : undefined;
  const onDrawn = useCallback(
    (boxes: number) => {
      if (final === undefined) return;
      setGraphDraw({ model, plan: planResult, status: final.engine === 'simple' ? 'simple' : 'drawn', boxes, ms: Math.round(performance.now() - planAt.current) });
    },
    [final, model, planResult, setGraphDraw],
  );
  useEffect(() => {
    const clear = (event: KeyboardEvent): void => {
      const target = event.target as HTMLElement | null;
      if (event.key !== 'Escape' || event.defaultPrevented || target?.closest('input, textarea, select, dialog') != null) return;
      select(undefined);
    };
    document.addEventListener('keydown', clear);
    return () => document.removeEventListener('keydown', clear);
  }, [select]);
  // the Constants switch is offered while it has something to unfold: not when the plan runs every constant node
  const hasConstants = useMemo(() => foldedNodes(model, plan, false).some(Boolean), [model, plan]);

  const toggle = useCallback((kind: 'collapsed' | 'bodies', id: string) => {
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
        else if (item.kind === 'io') {
          // A folded box lists its tensors; any other is 'in:<tensor>' or 'out:<tensor>'.
          const selection = ioBoxSelection(model, plan, item.tensors ?? [item.id.slice(item.id.indexOf(':') + 1)]);
          if (selection !== undefined) select(selection);
        }
      },
      toggleBodies: (item: GraphItem) => toggle('bodies', item.id),
      clear: () => select(undefined),
      focusItem: (id: string) => view.current?.reveal(id, false),
    }),
    [model, plan, select, toggle],
  );

  const facts = useMemo(() => nodeFacts(model, plan), [model, plan]);
  const [search, setSearch] = useState<SearchState>({ matches: [], current: undefined });
  const searchBox = useRef<GraphSearchHandle>(null);
  const marks = useMarks(model, plan, selection, shown?.input, search);
  const onStep = useStepToMatch({ model, plan, clusters: layout.input.clusters, collapsed: toggles.collapsed, bodies: toggles.bodies, setToggles, setAnchor, view, input: shown?.input, settled: layout.status === 'ready' });
  const focus = marks.focus;
  const ready = shown !== undefined;
  // The view shows it again on the final layout after a preview (the selection a link made, select=node:/lm_head/MatMul
  // on an 80-layer decoder, was left off screen by the final layout's first view) unless the user has moved the view since.
  useEffect(() => {
    if (focus !== undefined && ready) view.current?.reveal(focus, false);
  }, [focus, ready]);

  const clusters = layout.input.clusters;
  const setAll = (collapse: boolean): void => {
    setAnchor(undefined);
    setToggles((t) => ({ ...t, collapsed: new Set(collapse ? clusters.filter((c) => c.parent === undefined).map((c) => c.id) : []) }));
  };
  const showConstants = (): void => {
    setAnchor(undefined);
    setToggles((t) => ({ ...t, constants: t.constants !== true }));
  };

  return (
    <>
      <Toolbar>
        <GraphSearch model={model} plan={plan} clusters={layout.input.clusters} onChange={(matches, current) => setSearch({ matches, current })} onStep={onStep} handle={searchBox} />
        <GraphActions
          groups={clusters.length > 0}
          constants={hasConstants ? toggles.constants === true : undefined}
          matches={search.matches.length > 0}
          onSetAll={setAll}
          onConstants={showConstants}
          onStepMatch={(delta) => searchBox.current?.step(delta)}
          onFit={() => view.current?.fit()}
        />
      </Toolbar>
      <LayoutStatus layout={layout} nodes={model.nodes.length} />
      <a className="graph-skip" href="#heap-title" onClick={skipToHeap} data-testid="graph-skip">
        Skip the graph, to the heap
      </a>
      {shown !== undefined && (
        <GraphView handle={view} input={shown.input} placement={shown.placement} final={shown.placement === final} onDrawn={onDrawn} facts={facts} marks={marks.marks} handlers={handlers} anchor={anchor} />
      )}
    </>
  );
}

/**
 * The groups the graph of `model` starts with collapsed: its first view, with
 * the changes a link asked for (a link's groups are for the first model shown after it).
 */
function useStartingGroups(model: InferredModel, plan: ModelPlan | undefined): { first: ReadonlySet<string>; collapsed: ReadonlySet<string> } {
  const api = useAppStoreApi();
  const [start] = useState(() => {
    const groups = graphGroups(model, plan, false);
    const first = firstCollapsed(groups);
    const linked = api.getState().groups;
    const apply = linked.model === undefined || linked.model === model;
    const unknown = apply ? groupsNotInLink(model, plan, linked, [...groups.scopes, ...groups.plan]) : [];
    return { first, collapsed: apply ? collapsedOfView(linked, first, [...groups.scopes, ...groups.plan]) : first, unknown };
  });
  useLeftOutGroups(start.unknown);
  return start;
}

/** The link's groups that name no group of the graph, with its constants shown or not. */
function groupsNotInLink(model: InferredModel, plan: ModelPlan | undefined, linked: GroupView, clusters: readonly GraphCluster[]): string[] {
  if (linked.open.length === 0 && linked.closed.length === 0) return [];
  const ids = new Set(clusters.map((c) => c.id));
  const withConstants = graphGroups(model, plan, true);
  for (const c of [...withConstants.scopes, ...withConstants.plan]) ids.add(c.id);
  return groupsNotInGraph(linked, ids);
}

/** Names the link's groups the graph does not have in a console warning and the link notice, once. */
function useLeftOutGroups(unknown: readonly string[]): void {
  const { noteLinkLeftOut } = useActions();
  const told = useRef(false);
  useEffect(() => {
    if (told.current || unknown.length === 0) return;
    told.current = true;
    warnLeftOut(unknown);
    noteLinkLeftOut(unknown);
  }, [unknown, noteLinkLeftOut]);
}

/** Tells the store which groups are collapsed, for summary() and the link. */
function useReportGroups(model: InferredModel, first: ReadonlySet<string>, collapsed: ReadonlySet<string>, clusters: readonly GraphCluster[]): void {
  const { setGroups } = useActions();
  useEffect(() => {
    setGroups({ model, collapsed: collapsedIds(collapsed, clusters), ...viewOfCollapsed(collapsed, first, clusters) });
  }, [model, first, collapsed, clusters, setGroups]);
}

/** Moves keyboard focus to the heap pane's first control (or the pane itself). */
function skipToHeap(event: MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  const pane = document.querySelector<HTMLElement>('[data-testid="heap-pane"]');
  const target = pane?.querySelector<HTMLElement>('button, [href], input, select, [tabindex]:not([tabindex="-1"])') ?? pane;
  if (target === null || target === undefined) return;
  if (target === pane && !pane.hasAttribute('tabindex')) pane.setAttribute('tabindex', '-1');
  target.focus();
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
  search: SearchState,
): { marks: GraphMarks; focus: string | undefined } {
  const { matches, current: currentMatch } = search;
  return useMemo(() => {
    const data = plan === undefined ? undefined : cachedHeapData(plan, model).data;
    const emphasis = graphEmphasis(model, data, selection);
    const box = (i: number): string | undefined => input?.boxOfNode[i];
    const emphasized = new Set([...emphasis.nodes].flatMap((i) => box(i) ?? []));
    const values = new Set<string>();
    let ioFocus: string | undefined; // a selected graph input or output drawn as a box of its own (or in a folded KV-cache box)
    if (selection?.kind === 'buffer') {
      const at = data?.indexOfId.get(selection.buffer);
      const name = at === undefined ? undefined : data?.plan.buffers[at]?.name;
      if (name !== undefined) values.add(name);
      const io = name === undefined ? undefined : (input?.ioBoxes.get(`in:${name}`) ?? input?.ioBoxes.get(`out:${name}`));
      if (io !== undefined && input?.items.get(io)?.kind === 'io') ioFocus = io;
    } else if (emphasis.focus !== undefined) for (const v of model.nodes[emphasis.focus]?.outputs ?? []) values.add(v);
    const boxes = input === undefined ? [] : matches.map((m) => matchBox(m, input));
    const current = currentMatch === undefined ? undefined : boxes[currentMatch];
    // The box of a selected graph input or output is the selection's own, emphasized as a selected node's is.
    if (ioFocus !== undefined) emphasized.add(ioFocus);
    const focus = ioFocus ?? (emphasis.focus === undefined ? undefined : box(emphasis.focus));
    const selected = selection?.kind === 'node' || ioFocus !== undefined ? focus : undefined;
    const marks: GraphMarks = { emphasized, values, matches: new Set(boxes.filter((b): b is string => b !== undefined)), current, ...(selected !== undefined && { selected }) };
    return { marks, focus };
  }, [model, plan, selection, input, matches, currentMatch]);
}
