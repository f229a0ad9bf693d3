// A run of consecutive steps seen as a candidate template fusion unit (M2):
// its layers, boundary tensors, the tile the search finds for it and every
// rule's verdict. Depends only on the model's IR types and the planner.

import type { InferredGraph, InferredValue } from '../../../model/inferred';
import type { FusionSettings } from '../../targets/target';
import type { BlockIndex } from '../blocks';
import { searchTile, type Tile } from '../feature-map';
import type { Layer } from '../layer-geometry';
import { CAPACITY_RULES, evaluateRules, nram, ruleHolds, rulesFor, tileable, tileFitsSram } from './rules';
import { smallMapPipeline } from './shape-rules';
import type { Candidate, RuleVerdict } from './verdict';
import type { UnitShape } from '../unit-ranges';

/** What the builder knows of the graph in execution order. */
export interface UnitContext {
  readonly graph: InferredGraph;
  readonly order: readonly number[]; // node index by step
  readonly layers: readonly Layer[]; // by node index
  readonly blocks: BlockIndex;
  readonly settings: FusionSettings;
  readonly values: ReadonlyMap<string, InferredValue>;
  readonly stepOf: ReadonlyMap<number, number>; // node index -> step
  readonly onChipElement: ReadonlyMap<string, number>; // stored-sizes.ts: bytes per element of tensors held on chip in another type
}

/** A candidate with its verdicts. */
export interface Assessment {
  readonly first: number;
  readonly last: number;
  readonly candidate: Candidate;
  readonly verdicts: readonly RuleVerdict[];
  readonly capacityHolds: boolean;
  readonly allHold: boolean;
}

/** The candidate unit of steps [first, last]. */
export function candidateOf(ctx: UnitContext, first: number, last: number): Omit<Candidate, 'tile'> {
  const layers: Layer[] = [];
  const produced = new Set<string>();
  for (let step = Math.max(0, first); step <= Math.min(last, ctx.order.length - 1); step++) {
    const l = ctx.layers[ctx.order[step]!]!;
    layers.push(l);
    if (l.output !== undefined) produced.add(l.output.name);
    for (const v of l.sideOutputs) produced.add(v.name);
  }
  const inputs: InferredValue[] = [];
  const seen = new Set<InferredValue>();
  for (const l of layers) {
    for (const v of l.inputs) {
      if (produced.has(v.name) || seen.has(v)) continue;
      seen.add(v);
      inputs.push(v);
    }
  }
  const outputs = new Set(ctx.graph.outputs);
  const escaping = [...produced].filter((name) => {
    const v = ctx.values.get(name)!;
    return outputs.has(name) || v.consumers.some((c) => { const s = ctx.stepOf.get(c); return s === undefined || s < first || s > last; });
  });
  const output = layers[layers.length - 1]!.output!;
  const internal = [...produced].filter((n) => n !== output.name).map((n) => ctx.values.get(n)!);
  const onChipElement = new Map(internal.flatMap((v) => { const e = ctx.onChipElement.get(v.name); return e === undefined ? [] : [[v.name, e] as const]; }));
  const unit: UnitShape = { layers, inputs, output, internal, onChipElement };
  return {
    unit,
    escaping,
    wholeBlock: ctx.blocks.holdsWhole(first, last),
    weightReaders: (name) => new Set(ctx.values.get(name)?.consumers ?? []).size,
  };
}

/** Assesses steps [first, last]: finds the tile, then evaluates every enabled rule. */
export function assess(ctx: UnitContext, first: number, last: number): Assessment {
  const base = candidateOf(ctx, first, last);
  const s = ctx.settings;
  let tile: Tile | undefined;
  let verdicts: RuleVerdict[];
  const canTile = tileable({ ...base, tile: undefined });
  if (!canTile.holds) {
    verdicts = [canTile];
  } else {
    tile = tileOf(base, s);
    verdicts = evaluateRules({ ...base, tile }, s);
  }
  const capacityHolds = verdicts.every((v) => v.holds || !CAPACITY_RULES.includes(v.rule));
  return { first, last, candidate: { ...base, tile }, verdicts, capacityHolds, allHold: verdicts.every((v) => v.holds) };
}

/** The tile the search finds for a candidate: the largest that fits SRAM, NRAM and, for whole maps, the pipelining rule. */
function tileOf(base: Omit<Candidate, 'tile'>, s: FusionSettings): Tile | undefined {
  return searchTile(base.unit, s.rules.split, s.rules.maxSmallMaps, (t) => {
    const c = { ...base, tile: t };
    return tileFitsSram(c.unit, t, s.sramBytes) && nram(c, s).holds && (t.mode !== 'small-map' || smallMapPipeline(c, s).holds);
  });
}

/**
 * `assess(ctx, first, last).capacityHolds`, or with `every` its `allHold`,
 * without writing the verdicts: growth and the shrink step ask it of every
 * run they try and need the sentences only where they stop. The same tile
 * search and the same rules (FUSION_RULES), each by its cheaper test; the
 * capacity rules first, as they fail first.
 */
export function rulesHold(ctx: UnitContext, first: number, last: number, every = false): boolean {
  const base = candidateOf(ctx, first, last);
  const s = ctx.settings;
  if (!tileable({ ...base, tile: undefined }).holds) return false;
  const tile = tileOf(base, s);
  if (tile === undefined) return false;
  const c: Candidate = { ...base, tile };
  if (!rulesFor(c, s, true).every((r) => ruleHolds(r, c, s))) return false;
  return !every || rulesFor(c, s).every((r) => r.capacity || ruleHolds(r, c, s));
}

/**
 * `failures(assess(ctx, first, last), true)`: the failing capacity rules'
 * sentences, in the rules' order, writing only those (growth asks it where
 * it stops; the SRAM sentence needs the placed tile plan only when it fails).
 */
export function capacityFailures(ctx: UnitContext, first: number, last: number): string {
  const base = candidateOf(ctx, first, last);
  const s = ctx.settings;
  const canTile = tileable({ ...base, tile: undefined });
  if (!canTile.holds) return sentence(canTile);
  const c: Candidate = { ...base, tile: tileOf(base, s) };
  return rulesFor(c, s, true)
    .filter((r) => r.holds === undefined || !r.holds(c, s))
    .map((r) => r.check(c, s))
    .filter((v) => !v.holds)
    .map(sentence)
    .join('; ');
}

const sentence = (v: RuleVerdict): string => `${v.rule}: ${v.detail}`;

/** The failing verdicts (only the capacity rules' when `capacityOnly`) as one sentence. */
export function failures(a: Assessment, capacityOnly = false): string {
  return a.verdicts
    .filter((v) => !v.holds && (!capacityOnly || CAPACITY_RULES.includes(v.rule)))
    .map((v) => `${v.rule}: ${v.detail}`)
    .join('; ');
}
