// What the page plans for, as plain data: the user's bindings of a model
// (dims, tensor shapes, input values) and the plan settings (a target preset,
// its edited fields, a strategy and a search budget). The worker's messages
// carry them; the settings layer turns them into a target. No DOM.

import type { IoOwner, OrderPolicy, ScratchPlacement, SpillMode, WeightsPlacement } from '../planner/targets/target';

/** Values for symbolic dims, by name ("<input>:<axis>" for anonymous dims). */
export type DimValues = Readonly<Record<string, number>>;

/** Tensor shapes given by the user, by tensor name; they replace inferred shapes and propagate. */
export type ShapeValues = Readonly<Record<string, readonly number[]>>;

/** Values of graph inputs given by the user, by input name (flattened), e.g. to resolve an If. */
export type InputValues = Readonly<Record<string, readonly number[]>>;

/** What inference takes besides the file: dims, tensor shapes and graph-input values (absent: none). */
export interface ModelBindings {
  readonly dims: DimValues;
  readonly shapes?: ShapeValues;
  readonly inputValues?: InputValues;
}

/** A change to one memory region of the preset. */
export interface RegionEdit {
  readonly sizeLimit?: number | 'none'; // bytes; 'none' removes the preset's limit
  readonly alignment?: number; // bytes, a power of two
}

/** Changes to the target preset's main fields; an absent field keeps the preset's value. */
export interface TargetEdits {
  readonly regions?: Readonly<Record<string, RegionEdit>>; // by region name
  readonly fusion?: boolean; // false: plan without fusion units
  readonly computeUnits?: boolean; // false: every op on one generic unit (no M3 partition)
  readonly dwPwCacheBytes?: number; // depthwise + pointwise cache capacity (M5)
  readonly sramBytes?: number; // on-chip SRAM that fusion tiles into (fusion.sramBytes, the CLI's --sram)
  readonly order?: OrderPolicy; // execution-order policy (planning.order, the CLI's --order)
  readonly scratchPlacement?: ScratchPlacement; // scratch.placement (the CLI's --scratch-placement)
  readonly spill?: SpillMode; // planning.spill (the CLI's --spill): 'off' keeps every activation in the first region of the memory map
  readonly weights?: WeightsPlacement; // planning.weights (the CLI's --weights): flash, a RAM region, or copied to one at start
  readonly io?: IoOwner; // planning.io (the CLI's --io): graph inputs and outputs in the arena or the application's buffers
}

/** A target field the page edits, by its path in TargetEdits ('regions.sram.alignment', 'sramBytes'): what a refusal names as its cause. */
export type TargetField = `regions.${string}.${keyof RegionEdit & string}` | Exclude<keyof TargetEdits, 'regions'>;

/** Why a settings change was refused: the sentence shown, and the target field whose value caused it, when one did. */
export interface SettingsRefusal {
  readonly message: string;
  readonly field?: TargetField; // the settings panel's field, when the value of one caused it
}

/** What a plan is made for: a target preset and a strategy (undefined: the target's own). */
export interface PlanSettings {
  readonly target: string; // a preset name (planner/targets/presets.ts)
  readonly strategy: string | undefined; // a strategy name (planner/strategies/strategy-names.ts)
  readonly edits?: TargetEdits; // changes to the preset's fields; absent: the preset as it ships
  readonly budgetMs?: number; // wall-clock budget of best's searches per region, in ms; absent: the planner's default
}
