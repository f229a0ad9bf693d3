// The graph's layout as React state: builds the layout input of the model and
// plan on screen with the user's toggles, sends it to the layout worker and
// keeps the newest placement (with the input it belongs to): a preview of a
// large graph while the final layout is being made, then the final one.

import { useEffect, useMemo, useState } from 'react';
import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { createLayoutClient, type LayoutClient } from '../../worker/layout-client';
import type { GraphPlacement } from '../../worker/layout-protocol';
import { graphLayoutInput, type GraphLayoutInput, type GraphToggles } from './graph-layout-input';

/** Where the layout is. */
export type GraphLayoutState =
  | { readonly status: 'busy'; readonly input: GraphLayoutInput; readonly shown: Placed | undefined } // shown: the previous or a preview placement
  | { readonly status: 'ready'; readonly input: GraphLayoutInput; readonly shown: Placed }
  | { readonly status: 'failed'; readonly input: GraphLayoutInput; readonly shown: undefined; readonly message: string };

/** A placement and the input it was made from. */
export interface Placed {
  readonly input: GraphLayoutInput;
  readonly placement: GraphPlacement;
}

let shared: LayoutClient | undefined;

/** The page's layout worker, kept for the page's lifetime so that ELK stays warm (compiled) from one layout to the next. */
function sharedClient(): LayoutClient {
  shared ??= createLayoutClient();
  return shared;
}

/** Lays out `model` (with `plan`'s clusters) in the layout worker; a change of any argument lays out again. */
export function useGraphLayout(model: InferredModel, plan: ModelPlan | undefined, toggles: GraphToggles): GraphLayoutState {
  const input = useMemo(() => graphLayoutInput(model, plan, toggles), [model, plan, toggles]);
  const [result, setResult] = useState<Result | undefined>(undefined);

  useEffect(() => {
    let live = true;
    const preview = (placement: GraphPlacement): void => {
      if (live) setResult({ input, placed: { input, placement }, final: false });
    };
    void sharedClient().layout(input.graph, 'auto', preview).then((outcome) => {
      if (!live || outcome.status === 'superseded') return;
      if (outcome.status === 'done') setResult({ input, placed: { input, placement: outcome.placement }, final: true });
      else setResult((r) => failed(r, input, outcome.message));
    });
    return () => {
      live = false;
    };
  }, [input]);

  if (result?.input === input && result.placed !== undefined && result.final === true) return { status: 'ready', input, shown: result.placed };
  if (result?.input === input && result.message !== undefined) return { status: 'failed', input, shown: undefined, message: result.message };
  return { status: 'busy', input, shown: result?.placed };
}

type Result = { input: GraphLayoutInput; placed?: Placed; final?: boolean; message?: string };

/** After a failed layout: the preview of the same input (noting the failure) when there is one, else the failure. */
function failed(previous: Result | undefined, input: GraphLayoutInput, message: string): Result {
  const preview = previous?.input === input ? previous.placed : undefined;
  if (preview === undefined) return { input, message };
  return { input, placed: { input, placement: { ...preview.placement, note: `ELK failed (${message}); simple layout shown` } }, final: true };
}
