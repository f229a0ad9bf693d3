// The plan file a side of the comparison saves, as the Export panel's Plan
// file and `plan --save` write one: with the plan's evaluated suggestions
// when they are known. The page evaluates suggestions for the plan on screen
// only: a side that is that plan carries them once settled; a plan made for
// the comparison (B, another model file) has none evaluated, and a saved plan
// keeps what it was saved with. A file without them leaves the key out rather
// than claim there are none, and says why.

import type { StoreApi } from 'zustand/vanilla';
import type { PlanFile } from '../planner/assembly/plan-file';
import type { ComparedPlan } from './compare-store';
import type { AppState } from './state';
import { settledSuggestions, suggestionsMissing } from './suggestions';

/** A side's plan file, and why it leaves the suggestions out when it does. */
export interface SidePlanFile {
  readonly file: PlanFile;
  readonly withoutSuggestions?: string; // why the file has no `suggestions` key: "their evaluation failed: …"
}

/** The plan file of `side`, with the suggestions of the plan on screen (waiting while they run) when the side is that plan. */
export async function sidePlanFile(side: ComparedPlan, page: StoreApi<AppState>): Promise<SidePlanFile> {
  const file = side.file;
  if (file.plan.suggestions !== undefined) return { file };
  if (side.saved === true) return { file, withoutSuggestions: 'the plan file it was read from has none' };
  if (side.shown === undefined) return { file, withoutSuggestions: 'they are evaluated for the plan on screen only, not for a plan made for the comparison' };
  const onScreen = page.getState().model?.plan;
  if (onScreen?.status !== 'planned' || onScreen.plan !== side.shown) return { file, withoutSuggestions: 'they were evaluated for the plan on screen, which this side no longer is' };
  const suggestions = await settledSuggestions(page);
  if (suggestions === undefined) return { file, withoutSuggestions: suggestionsMissing(page.getState()) };
  return { file: { ...file, plan: { ...file.plan, suggestions } } };
}
