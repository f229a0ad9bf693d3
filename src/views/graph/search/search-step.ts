// What stepping to a search match does in the graph pane: open the collapsed
// groups that hide it, select it in every view (a node; a tensor's buffer, so
// the heap lights it), and bring it into view once a layout that shows it is
// drawn (the view keeps it there through the final layout after a preview,
// unless the user moves it: view/jump.ts). A React hook over the pure search (search.ts).

import { useCallback, useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { InferredModel } from '../../../model/inferred';
import type { ModelPlan } from '../../../planner/plan';
import { useActions } from '../../../store/context';
import { tensorSelection } from '../../selection';
import type { GraphCluster } from '../groups/clusters';
import type { GraphLayoutInput, GraphToggles } from '../layout/layout-input';
import { bodiesToShow, groupsToOpen, revealBox, type SearchMatch } from './search';
import type { GraphViewHandle } from '../view/graph-view';

/** The search's matches and the current one, as the pane keeps them. */
export interface SearchState {
  readonly matches: readonly SearchMatch[];
  readonly current: number | undefined;
}

/** What the hook needs of the pane. */
export interface StepContext {
  readonly model: InferredModel;
  readonly plan: ModelPlan | undefined;
  readonly clusters: readonly GraphCluster[];
  readonly collapsed: ReadonlySet<string>;
  readonly bodies: ReadonlySet<string>; // op boxes whose bodies are shown
  readonly setToggles: Dispatch<SetStateAction<GraphToggles>>;
  readonly setAnchor: (id: string | undefined) => void;
  readonly view: RefObject<GraphViewHandle | null>;
  readonly input: GraphLayoutInput | undefined; // of the placement on screen
  readonly settled: boolean; // the placement on screen is the final one for the toggles
}

/** The handler of a step to a match; see the module header. */
export function useStepToMatch(context: StepContext): (match: SearchMatch) => void {
  const { select } = useActions();
  const pending = useRef<SearchMatch | undefined>(undefined);
  const { model, plan, clusters, collapsed, bodies, setToggles, setAnchor, view, input, settled } = context;
  // Bring the match into view on every placement drawn after the step, until the final one.
  useEffect(() => {
    const match = pending.current;
    if (match === undefined || input === undefined) return;
    const box = revealBox(match, input);
    if (box !== undefined) view.current?.reveal(box, true);
    if (settled && groupsToOpen(match, clusters, collapsed).length === 0 && bodiesToShow(match, bodies).length === 0) pending.current = undefined;
  }, [input, settled, clusters, collapsed, bodies, view]);
  return useCallback(
    (match: SearchMatch) => {
      const open = groupsToOpen(match, clusters, collapsed);
      const show = bodiesToShow(match, bodies);
      if (open.length > 0 || show.length > 0) {
        pending.current = match;
        setAnchor(open.length > 0 ? open[open.length - 1] : show[0]);
        setToggles((t) => ({ ...t, collapsed: new Set([...t.collapsed].filter((id) => !open.includes(id))), bodies: new Set([...t.bodies, ...show]) }));
      } else if (input !== undefined) {
        pending.current = undefined;
        const box = revealBox(match, input);
        if (box !== undefined) view.current?.reveal(box, true);
      } else pending.current = match; // nothing drawn yet: shown on the first placement
      // A body's node is selected through the op that holds it: the details and the heap know the main graph's nodes.
      const selection =
        match.kind === 'node' || match.kind === 'body-node' ? { kind: 'node' as const, node: model.nodes[match.node]!.name } : match.kind === 'tensor' ? tensorSelection(model, plan, match.name) : undefined;
      if (selection !== undefined) select(selection);
    },
    [model, plan, clusters, collapsed, bodies, setToggles, setAnchor, view, input, select],
  );
}
