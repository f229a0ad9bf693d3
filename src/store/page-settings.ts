// The settings of the plan on screen, as window.heapscope.summary().settings
// gives them (DESIGN.md): what a share link must reproduce for the same peak.

import type { LoadedModel } from './state';
import { weightsText } from '../planner/explain/target-change';
import { userBindings, type Bindings } from './bindings';
import type { DimValues, InputValues, PlanSettings, RegionEdit, ShapeValues } from '../worker/protocol';

/** Everything that changes the plan on screen. */
export interface PageSettings {
  readonly target: string; // the target preset
  readonly fields: Readonly<Record<string, RegionEdit>>; // edited region fields (size limit, alignment), by region
  readonly fusion: boolean; // fusion units planned (the preset's default unless switched off)
  readonly computeUnits: boolean; // compute-unit partition planned
  readonly cacheBytes: number | null; // an edited depthwise+pointwise cache capacity; null: the preset's
  readonly sramBytes: number | null; // an edited fusion SRAM size; null: the preset's
  readonly order: string | null; // an edited execution-order policy; null: the preset's
  readonly scratchPlacement: string | null; // an edited scratch placement (free-areas, with-activations); null: the preset's
  readonly spill: boolean; // activations spill along the memory map (the preset's default unless switched off)
  readonly weights: string | null; // an edited place for the weights (flash, REGION, copy-to:REGION); null: the preset's
  readonly io: string | null; // an edited owner of graph I/O (arena, application); null: the preset's
  readonly strategy: string | null; // the chosen strategy; null: the target's own
  readonly budgetMs: number | null; // best's search budget in ms (the link's budget=); null: the default
  readonly dims: DimValues; // dims the user bound
  readonly shapes: ShapeValues; // tensor shapes the user gave
  readonly inputValues: InputValues; // graph-input values the user gave
}

/** The settings of the shown model's plan; null without a model. */
export function pageSettings(model: LoadedModel | undefined): PageSettings | null {
  if (model === undefined) return null;
  return settingsOf(model.plan.settings, userBindings(model.inferred));
}

/** `settings` and `bindings` as summary() gives them: the settings of the shown plan, or of a comparison's B. */
export function settingsOf(settings: PlanSettings, bindings: Bindings): PageSettings {
  const edits = settings.edits;
  return {
    target: settings.target,
    fields: edits?.regions ?? {},
    fusion: edits?.fusion !== false,
    computeUnits: edits?.computeUnits !== false,
    cacheBytes: edits?.dwPwCacheBytes ?? null,
    sramBytes: edits?.sramBytes ?? null,
    order: edits?.order ?? null,
    scratchPlacement: edits?.scratchPlacement ?? null,
    spill: edits?.spill !== 'off',
    weights: edits?.weights === undefined ? null : weightsText(edits.weights),
    io: edits?.io ?? null,
    strategy: settings.strategy ?? null,
    budgetMs: settings.budgetMs ?? null,
    dims: bindings.dims,
    shapes: bindings.shapes,
    inputValues: bindings.inputValues,
  };
}
