// Keeps the graph's placement in step with the model, plan and toggles: the
// groups and layout input are rebuilt on every change, but the layout worker is
// asked only when the structure changed (its key); otherwise the cached
// placement is shown at once with the new labels and frames. While a layout
// runs the previous placement (or a preview) stays on screen.

import { useEffect, useMemo, useState } from 'react';
import type { InferredModel } from '../../../model/inferred';
import type { ModelPlan } from '../../../planner/plan';
import { createLayoutClient, type LayoutClient } from '../../../worker/layout/client';
import { layeredLayout } from '../../../worker/layout/layered';
import type { GraphPlacement, LayoutBox } from '../../../worker/layout/protocol';
import { graphGroups, type GraphGroups } from '../groups/groups';
import { graphLayoutInput, type GraphLayoutInput, type GraphToggles } from './layout-input';
import { cachedPlacement, keepPlacement } from './layout-cache';

/** Where the layout is. */
export type GraphLayoutState =
  | { readonly status: 'busy'; readonly input: GraphLayoutInput; readonly shown: Placed | undefined; readonly groups: GraphGroups } // shown: the previous or a preview placement
  | { readonly status: 'ready'; readonly input: GraphLayoutInput; readonly shown: Placed; readonly groups: GraphGroups }
  | { readonly status: 'failed'; readonly input: GraphLayoutInput; readonly shown: undefined; readonly message: string; readonly groups: GraphGroups };

/** A placement and the input it was made from. */
export interface Placed {
  readonly input: GraphLayoutInput;
  readonly placement: GraphPlacement;
}

/** How long ELK may take before its layered preview is kept instead. */
const ELK_BUDGET_MS = 2000;
/** Boxes (at any depth) and links up to which the first preview is laid out on this thread (a few ms). */
const PREVIEW_HERE_BOXES = 60;
const PREVIEW_HERE_LINKS = 120;

let shared: LayoutClient | undefined;

/** The page's layout worker, kept for the page's lifetime so that ELK stays warm (compiled) from one layout to the next. */
function sharedClient(): LayoutClient {
  shared ??= createLayoutClient();
  return shared;
}

/** Starts the layout worker (and compiles ELK) before a model needs it. */
export function warmGraphLayout(): void {
  sharedClient().warm();
}

type Result = { key: string; placement?: GraphPlacement; final?: boolean; message?: string };

/** Lays out `model` (with `plan`'s groups) in the layout worker when its structure changes; see the module header. */
export function useGraphLayout(model: InferredModel, plan: ModelPlan | undefined, toggles: GraphToggles): GraphLayoutState {
  const groups = useMemo(() => graphGroups(model, plan, toggles.constants === true), [model, plan, toggles.constants]);
  const input = useMemo(() => graphLayoutInput(model, plan, toggles, groups), [model, plan, toggles, groups]);
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [previous, setPrevious] = useState<Placed | undefined>(undefined);
  const { key } = input;
  const cached = cachedPlacement(model, key);

  useEffect(() => {
    if (cached !== undefined) return undefined;
    let live = true;
    const graph = input.graph;
    const preview = (placement: GraphPlacement): void => {
      if (live) setResult({ key, placement, final: false });
    };
    // Nothing on screen yet: a small graph's layered layout, made here at once, stands in until the worker's
    // answers (starting the worker and compiling ELK took 5 s on a busy machine, the pane empty for a 1-node model)
    if (previous === undefined && graph.links.length <= PREVIEW_HERE_LINKS && boxCount(graph.boxes) <= PREVIEW_HERE_BOXES) {
      const started = performance.now();
      try {
        const { stats: _stats, ...placed } = layeredLayout(graph);
        preview({ ...placed, engine: 'layered', ms: performance.now() - started });
      } catch {
        // the worker's answer (or its failure) follows
      }
    }
    void sharedClient()
      .layout(graph, 'auto', preview, ELK_BUDGET_MS)
      .then((outcome) => {
        if (!live || outcome.status === 'superseded') return;
        if (outcome.status === 'done') {
          keepPlacement(model, key, outcome.placement);
          setResult({ key, placement: outcome.placement, final: true });
        } else setResult((r) => failed(r, key, outcome.message));
      });
    return () => {
      live = false;
    };
    // the graph belongs to the key: a new input with the same key needs no new layout
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, key, cached === undefined]);

  const final = cached ?? (result?.key === key && result.final === true ? result.placement : undefined);
  const shownNow = useMemo(
    () => (final !== undefined ? { input, placement: final } : result?.key === key && result.placement !== undefined ? { input, placement: result.placement } : undefined),
    [final, input, result, key],
  );
  // The last placement shown, kept while a new layout has nothing to show yet. Set while rendering
  // (React's pattern for state kept from an earlier render), not by an effect that renders again after the commit.
  if (shownNow !== undefined && shownNow.placement !== previous?.placement) setPrevious(shownNow);
  if (final !== undefined) return { status: 'ready', input, shown: { input, placement: final }, groups };
  if (result?.key === key && result.message !== undefined) return { status: 'failed', input, shown: undefined, message: result.message, groups };
  return { status: 'busy', input, shown: shownNow ?? previous, groups };
}

/** After a failed layout: the preview of the same structure (noting the failure) when there is one, else the failure. */
function failed(previous: Result | undefined, key: string, message: string): Result {
  const preview = previous?.key === key ? previous.placement : undefined;
  if (preview === undefined) return { key, message };
  return { key, placement: { ...preview, note: `ELK failed (${message}); layered layout shown` }, final: true };
}

/** Boxes at any depth. */
function boxCount(boxes: readonly LayoutBox[]): number {
  let count = 0;
  for (const b of boxes) count += 1 + (b.children === undefined ? 0 : boxCount(b.children));
  return count;
}
