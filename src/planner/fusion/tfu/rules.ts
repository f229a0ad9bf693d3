// The rules of template fusion units (METHODS.md M2, step 2), each a small
// named predicate over a candidate unit and its tile that says whether it
// holds, with a sentence a person can read ("weights exceed WRAM: 612 KiB >
// 512 KiB"). Depends only on the planner and src/shared.
//
// - Capacity rules (tileable, shared-weights, wram, sram, nram,
//   small-map-pipeline, small-maps, redundancy, stride-redundancy) only get
//   harder as a unit grows: growth stops at the first that fails.
// - Composition rules (shape-rules.ts) (single-output, map-output, main-layers, main-main-non-main,
//   scalar-then-vector) may fail on a prefix and hold later: the builder
//   shrinks the grown unit until they hold.

import { formatBytes } from '../../../shared/format';
import type { FusionSettings } from '../../targets/target';
import { liveTileBytes, memoPerUnit, tileBuffers, tileKey, unitElementBytes, type Tile } from '../feature-map';
import { isScalarValue } from '../layer-geometry';
import { nchw } from '../layout';
import { planTile } from '../tile-plan';
import { compareBytes, layerWeightsPerCore, verdict, type Candidate, type RuleName, type RuleVerdict } from './verdict';
import { mainLayers, mainMainNonMain, redundancy, scalarThenVector, singleOutput, smallMapPipeline, strideRedundancy } from './shape-rules';
import { axisExtent, unitLayout, type UnitShape } from '../unit-ranges';

/** One rule of the table below. */
export interface FusionRule {
  readonly rule: RuleName;
  /** A capacity rule (only gets harder as a unit grows) or a composition rule. */
  readonly capacity: boolean;
  /** Whether the rule is asked at all, under these settings and of this candidate; always when absent. */
  readonly applies?: (c: Candidate, s: FusionSettings) => boolean;
  readonly check: (c: Candidate, s: FusionSettings) => RuleVerdict;
  /** `check(c, s).holds` without writing the sentence, where that is cheaper (SRAM: bounds before placing the tile). */
  readonly holds?: (c: Candidate, s: FusionSettings) => boolean;
}

/**
 * Every rule, in the order verdicts are listed: the one table that
 * evaluateRules, and the builder's checks in candidate.ts (whether the
 * rules hold; the failing capacity rules' sentences), all walk, so a rule
 * added here is asked everywhere.
 */
export const FUSION_RULES: readonly FusionRule[] = [
  { rule: 'tileable', capacity: true, check: (c) => tileable(c) },
  { rule: 'shared-weights', capacity: true, applies: (_, s) => s.rules.skipSharedWeights, check: (c) => sharedWeights(c) },
  { rule: 'wram', capacity: true, check: (c, s) => wram(c, s) },
  { rule: 'sram', capacity: true, check: (c, s) => sram(c, s), holds: (c, s) => c.tile !== undefined && tileFitsSram(c.unit, c.tile, s.sramBytes) },
  { rule: 'nram', capacity: true, check: (c, s) => nram(c, s) },
  { rule: 'small-maps', capacity: true, check: (c, s) => smallMaps(c, s) },
  { rule: 'redundancy', capacity: true, check: (c, s) => redundancy(c, s) },
  { rule: 'stride-redundancy', capacity: true, check: (c, s) => strideRedundancy(c, s) },
  { rule: 'main-layers', capacity: false, check: (c, s) => mainLayers(c, s) },
  { rule: 'map-output', capacity: false, check: (c) => mapOutput(c) },
  { rule: 'small-map-pipeline', capacity: true, applies: (c) => c.tile?.mode === 'small-map', check: (c, s) => smallMapPipeline(c, s) },
  { rule: 'single-output', capacity: false, applies: (_, s) => s.rules.singleOutput, check: (c) => singleOutput(c) },
  { rule: 'main-main-non-main', capacity: false, applies: (_, s) => s.rules.mainMainNonMain, check: (c) => mainMainNonMain(c) },
  { rule: 'scalar-then-vector', capacity: false, applies: (_, s) => s.rules.scalarThenVector, check: (c) => scalarThenVector(c) },
];

/** Capacity rules: growth stops at the first that fails. */
export const CAPACITY_RULES: readonly RuleName[] = FUSION_RULES.filter((r) => r.capacity).map((r) => r.rule);

/** The rules asked of `c` under `s` (capacity rules only, when `capacityOnly`), in the table's order. */
export function rulesFor(c: Candidate, s: FusionSettings, capacityOnly = false): FusionRule[] {
  return FUSION_RULES.filter((r) => (!capacityOnly || r.capacity) && (r.applies?.(c, s) ?? true));
}

/** Whether `rule` holds for `c`, by its cheaper test when it has one. */
export function ruleHolds(rule: FusionRule, c: Candidate, s: FusionSettings): boolean {
  return rule.holds !== undefined ? rule.holds(c, s) : rule.check(c, s).holds;
}

const kib = (n: number): string => formatBytes(n);

/** Every enabled rule on a candidate, in the table's order. */
export function evaluateRules(c: Candidate, s: FusionSettings): RuleVerdict[] {
  return rulesFor(c, s).map((r) => r.check(c, s));
}

/** Every layer can pass a feature-map tile through, and all store their maps in one layout. */
export function tileable(c: Candidate): RuleVerdict {
  const bad = c.unit.layers.find((l) => l.tileable !== undefined);
  if (bad !== undefined) return verdict('tileable', false, `'${bad.name}' cannot be tiled: ${bad.tileable}`);
  const layout = unitLayout(c.unit);
  const other = c.unit.layers.find((l) => l.layout !== layout);
  if (other !== undefined) return verdict('tileable', false, `'${other.name}' stores its maps ${other.layout}, the unit ${layout}`);
  return verdict('tileable', true, 'every layer tiles');
}

/** The last layer writes a feature map, not a scalar side result (a scale or zero point). */
export function mapOutput(c: Candidate): RuleVerdict {
  const last = c.unit.layers[c.unit.layers.length - 1]!;
  if (c.unit.output.shape?.length === 4) return verdict('map-output', true, `'${last.name}' writes a feature map`);
  return verdict('map-output', false, `'${last.name}' computes a scalar: a unit ends at a feature map`);
}

/** No Conv reads weights that another layer reads too (a scale or zero point shared by a quantized graph's layers is no weight). */
export function sharedWeights(c: Candidate): RuleVerdict {
  for (const l of c.unit.layers) {
    if (l.base !== 'Conv') continue;
    const shared = l.weights.find((w) => !isScalarValue(w) && c.weightReaders(w.name) > 1);
    if (shared !== undefined) return verdict('shared-weights', false, `'${l.name}' shares weights '${shared.name}' with another layer`);
  }
  return verdict('shared-weights', true, 'no shared or computed weights');
}

/** The unit's weights fit in each core's WRAM, split by C-out over the cluster's cores. */
export function wram(c: Candidate, s: FusionSettings): RuleVerdict {
  const perCore = Math.ceil(c.unit.layers.reduce((sum, l) => sum + layerWeightsPerCore(l, s.coresPerCluster), 0));
  const holds = perCore <= s.wramBytes;
  return verdict('wram', holds, `weights ${holds ? 'fit' : 'exceed'} WRAM: ${compareBytes(perCore, holds ? '<=' : '>', s.wramBytes).replace(/ (<=|>) /, ' per core $1 ')}`);
}

/** Tile plan peaks already computed, per unit shape. */
const peaks = new WeakMap<UnitShape, Map<string, number>>();

/** SRAM use of a tile: its on-chip plan's peak. */
export function tileSramBytes(unit: UnitShape, tile: Tile, alignment = 1): number {
  return memoPerUnit(peaks, unit, tileKey(tile, alignment), () => {
    const buffers = tileBuffers(unit, tile);
    const live = liveTileBytes(buffers, unit.layers.length);
    // A tiling too fine to examine (see MAX_AXIS_TILES) has no finite size and never fits.
    return !Number.isFinite(live) ? Infinity : live === 0 ? 0 : planTile(buffers, alignment).peak;
  });
}

/**
 * Whether the tile's on-chip plan peaks under `limit`, as
 * `tileSramBytes(unit, tile) < limit`, without placing the tile buffers when
 * bounds decide: the plan's peak is at least the bytes live at one layer
 * (those tiles all conflict) and at most the bytes of all tiles (a greedy
 * placement puts each one at or below the peak of those placed before it).
 */
export function tileFitsSram(unit: UnitShape, tile: Tile, limit: number): boolean {
  const known = peaks.get(unit)?.get(tileKey(tile, 1)); // tileSramBytes' own key at alignment 1
  if (known !== undefined) return known < limit;
  const buffers = tileBuffers(unit, tile);
  const live = liveTileBytes(buffers, unit.layers.length);
  if (!Number.isFinite(live)) return false;
  if (live === 0) return 0 < limit;
  if (live >= limit) return false;
  if (buffers.reduce((sum, b) => sum + b.bytes, 0) < limit) return true;
  return tileSramBytes(unit, tile) < limit;
}

/**
 * The tile's feature maps fit in SRAM: the peak of the tile plan (inputs,
 * intermediates and output placed over the unit's layers, sharing bytes only
 * where lifetimes allow) stays under S, as METHODS.md's `in + out < S`.
 */
export function sram(c: Candidate, s: FusionSettings): RuleVerdict {
  if (c.tile === undefined) {
    const smallest = tileSramBytes(c.unit, { mode: 'large-map', maps: 1, rows: 1, cols: 1 });
    return verdict('sram', false, `no tile fits SRAM: even a 1×1 tile needs ${kib(smallest)} >= ${kib(s.sramBytes)}`);
  }
  const bytes = tileSramBytes(c.unit, c.tile);
  const holds = bytes < s.sramBytes;
  return verdict('sram', holds, `tile needs SRAM: ${compareBytes(bytes, holds ? '<' : '>=', s.sramBytes)}`);
}

/** Largest sub-map one core holds: a layer's input and output rows for its share of the tile. */
export function nramPerCore(unit: UnitShape, tile: Tile, cores: number): number {
  return memoPerUnit(subMaps, unit, tileKey(tile, cores), () => largestSubMap(unit, tile, cores));
}

/** Largest sub-maps per core already computed, per unit shape (the tile search and the rules both ask). */
const subMaps = new WeakMap<UnitShape, Map<string, number>>();

function largestSubMap(unit: UnitShape, tile: Tile, cores: number): number {
  const rows = axisExtent(unit, 2, tile.rows);
  const cols = axisExtent(unit, 3, tile.cols);
  const layout = unitLayout(unit);
  let most = 0;
  for (const l of unit.layers) {
    const out = l.output!;
    const sub = Math.ceil((rows.maxLength.get(out.name) ?? 0) / cores);
    let bytes = nchw(out, layout)[1] * sub * (cols.maxLength.get(out.name) ?? 0) * unitElementBytes(unit, out);
    for (const input of l.inputs) {
      const need = Math.min(rows.maxLength.get(input.name) ?? 0, (sub - 1) * l.h.stride + (l.h.kernel - 1) * l.h.dilation + 1);
      bytes += nchw(input, layout)[1] * need * (cols.maxLength.get(input.name) ?? 0) * unitElementBytes(unit, input);
    }
    most = Math.max(most, Math.ceil(bytes * tile.maps));
  }
  return most;
}

/** Each core's sub-map fits in its NRAM. */
export function nram(c: Candidate, s: FusionSettings): RuleVerdict {
  if (c.tile === undefined) return verdict('nram', false, 'no tile to split over the cores');
  const bytes = nramPerCore(c.unit, c.tile, s.coresPerCluster);
  const holds = bytes <= s.nramBytes;
  return verdict('nram', holds, `largest sub-map per core vs NRAM: ${compareBytes(bytes, holds ? '<=' : '>', s.nramBytes)}`);
}

/** A small-map tile holds at most maxSmallMaps feature maps. */
export function smallMaps(c: Candidate, s: FusionSettings): RuleVerdict {
  const maps = c.tile?.mode === 'small-map' ? c.tile.maps : 1;
  const holds = maps <= s.rules.maxSmallMaps;
  return verdict('small-maps', holds, `${maps} map(s) per tile ${holds ? '<=' : '>'} ${s.rules.maxSmallMaps}`);
}
