// The plain-data result of comparing two saved plans: matched buffers with their
// change, the peak change split into ranked causes, and the bytes moved.
// Depends only on the bytes-moved types.

import type { MovedDiff } from './moved-bytes';
import type { InputChange } from './input-changes';
import type { RuntimeArenaFigures, RuntimeDelta } from './runtime-delta';

export type { InputChange };

/** How a buffer changed from plan A to plan B. */
/** 'off-chip': tiled on chip by a fusion unit in A and not in B (its size change is the tile's, not growth); 'on-chip' the other way. */
export type BufferStatus = 'grown' | 'shrunk' | 'unknown' | 'new' | 'gone' | 'moved' | 'off-chip' | 'on-chip' | 'same';

/** One buffer of A, of B, or a matched pair. */
export interface BufferChange {
  readonly status: BufferStatus;
  readonly nameA?: string;
  readonly nameB?: string;
  readonly idA?: number; // PlannedBuffer.id in plan A
  readonly idB?: number;
  readonly sizeA?: number;
  readonly sizeB?: number;
  readonly requestedA?: number; // a variable-size scratch buffer given more than it asks: the bytes it asks (sizeA is the free space it was given)
  readonly requestedB?: number; // ... in B
  readonly offsetA?: number;
  readonly offsetB?: number;
  readonly regionA?: string;
  readonly regionB?: string;
  readonly node?: string; // producing node (B's when both have one)
  readonly matchedBy?: 'name' | 'producer'; // tensor name, or producer op type and position
  readonly move?: 'between-regions' | 'within-region'; // status moved: to another region, or to another offset (or free space given) in the same one
}

/**
 * Why the peak changed:
 * - `dim-changed`: buffers live at the peak grew or shrank by the ratio of a changed dim;
 * - `input-changed`: buffers live at the peak changed size, no changed dim explaining it, with a shape override or input value changed (`inputs`);
 * - `tensor-grew` / `tensor-shrunk`: one buffer's size changed for another reason;
 * - `alignment-changed`: buffers live at the peak hold the same bytes of data on both sides but another alignment padding (the target aligns to another power of two);
 * - `new-buffer-at-peak`: a buffer of B with no match in A is live at B's peak;
 * - `buffer-gone`: a buffer of A live at its peak has no match in B;
 * - `fusion-added`: a fusion unit B adds (not in A) keeps tensors on chip, taking them off the region;
 * - `fusion-undone`: a fusion unit of A is not in B, its tensors are back;
 * - `region-moved`: buffers moved between memory regions for another reason (a spill: what it takes from one region's peak it may add to another's, so its bytes in all can be 0);
 * - `peak-moved`: matched buffers live at one plan's peak step and not at the other's, the peak being at another step;
 * - `lifetime-changed`: the same at one step in both plans (the same step and node): the buffers' lifetimes differ;
 * - `size-unknown`: a buffer whose size is unknown on one side (`side`), planned there as 0 B, so that side's peak is a lower estimate;
 * - `placement-worse` / `placement-better`: holes and padding at the peak, same strategy and target (every field);
 * - `strategy-changed` / `target-changed`: the same, when the strategy or the target (its preset or one of its fields) differs;
 * - `models-differ`: A and B are plans of different models (model-match.ts): the only cause, holding the whole change (0 bytes when their peaks are equal); no buffer of one is put beside one of the other but by name.
 */
export type CauseKind =
  | 'dim-changed'
  | 'input-changed'
  | 'tensor-grew'
  | 'tensor-shrunk'
  | 'alignment-changed'
  | 'new-buffer-at-peak'
  | 'buffer-gone'
  | 'fusion-added'
  | 'fusion-undone'
  | 'region-moved'
  | 'peak-moved'
  | 'lifetime-changed'
  | 'size-unknown'
  | 'placement-worse'
  | 'placement-better'
  | 'strategy-changed'
  | 'target-changed'
  | 'models-differ';

/** One cause of the peak change; the causes of a diff sum to its delta. */
export interface Cause {
  readonly kind: CauseKind;
  readonly bytes: number; // signed share of the peak delta
  readonly summary: string; // one readable sentence naming the dim, op or unit
  readonly buffers: readonly string[]; // tensor names involved (B's name when matched)
  readonly idsA?: readonly number[]; // PlannedBuffer ids in plan A of the buffers involved (diffPlans always sets them)
  readonly idsB?: readonly number[]; // ... and in plan B
  readonly nodes: readonly string[]; // nodes involved
  readonly dim?: string; // dim-changed: the dim; 'a×b' for a product, 'a or b' when either fits
  readonly setDims?: readonly string[]; // dim-changed: the changed dims behind `dim` that were set (a total length that follows its parts is replaced by them)
  readonly inputs?: readonly string[]; // input-changed: the tensors whose given shape or value changed
  readonly unit?: string; // fusion-*: the fusion unit's name
  readonly side?: 'a' | 'b'; // size-unknown: the plan where the sizes are unknown
  readonly regions: readonly string[]; // regions whose peak it changed
  readonly title?: string; // target-changed of one preset with named fields edited: what changed ("scratch placement changed (free areas → with activations)")
}

/** The peak of one region in both plans. */
export interface RegionDelta {
  readonly name: string;
  readonly peakA: number; // 0 when A has no such region
  readonly peakB: number;
  readonly delta: number;
  readonly sizeLimitA?: number; // the region's size limit in A's target, when it has one
  readonly sizeLimitB?: number;
  readonly overByA: number; // bytes the region holds in A beyond its limit (weights and TFLite Micro's tail included, as plan counts them); 0 when within
  readonly overByB: number;
}

/** A dim planned with different values. */
export interface DimChange {
  readonly name: string;
  readonly a: number | undefined; // undefined: the side has no such dim
  readonly b: number | undefined;
  readonly follows?: readonly string[]; // a total length the user did not give: the changed dims it is the sum of, which it follows
}

/** The comparison of plan A with plan B. */
export interface PlanDiff {
  readonly peakA: number;
  readonly peakB: number;
  readonly delta: number; // peakB - peakA
  readonly completeA: boolean; // false when some size is unknown in A: peakA is a lower estimate
  readonly completeB: boolean; // ... in B
  readonly fitsA: boolean; // every region of A within its size limit, as plan's `fits`
  readonly fitsB: boolean;
  readonly refusedA?: true; // TensorFlow Lite Micro refuses A (its runtimePlan.refused): no arena works, whatever the other side is planned for
  readonly refusedB?: true; // ... B; what a budget judges first
  readonly pastLimitA?: string; // the first tensor of A whose size is known to pass 2^53 − 1 bytes (planned as 0 bytes): A is over any budget
  readonly pastLimitB?: string; // ... of B; a budget judges B over by it, whatever peakB says
  readonly regions: readonly RegionDelta[];
  readonly dims: readonly DimChange[]; // only the dims that differ
  readonly inputs?: readonly InputChange[]; // the shape overrides and input values that differ; absent when none do (or a side does not record them)
  readonly strategyA: string;
  readonly strategyB: string;
  readonly targetA: string;
  readonly targetB: string;
  readonly buffers: readonly BufferChange[]; // matched by name only when `modelsDiffer`
  readonly modelsDiffer?: true; // A and B are plans of different models: no tensor names or op order in common
  readonly causes: readonly Cause[]; // ranked by |bytes|, largest first
  readonly moved?: MovedDiff; // bytes moved per region and the buffers that changed region; when both plans give bytes moved
  readonly runtime?: RuntimeDelta; // both plans of TensorFlow Lite Micro: the tensor arenas to declare, what the firmware compares (not the peaks)
  readonly runtimeA?: RuntimeArenaFigures; // only A is a plan of TensorFlow Lite Micro: its arena to declare; B declares none, so there is no delta
  readonly runtimeB?: RuntimeArenaFigures; // only B is one: its arena to declare, what a budget judges
}
