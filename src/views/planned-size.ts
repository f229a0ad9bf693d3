// Why a tensor's planned size differs from its shape × dtype: a compute unit
// that stores it in its own type (M3: the NPU's int8 where the model says
// float32), or a fusion unit that keeps only a tile of it on chip (M2). The
// Details line, the graph's edges and the Tensors table say it with these
// words, so one tensor never shows two sizes without the reason. Pure.

import type { ModelPlan } from '../planner/plan';
import { formatBytes } from '../shared/format';

/** A tensor planned at another size than its shape and dtype give, and why. */
export interface PlannedSize {
  readonly bytes: number; // bytes of data the plan gives it
  readonly full: number; // shape × dtype, as the model states it
  readonly fullDtype: string; // the model's dtype
  readonly dtype?: { readonly name: string; readonly unit: string | undefined }; // stored in another type, on this compute unit
  readonly tile?: string; // the fusion unit keeping a tile of it on chip
}

/** What plannedSizeOf reads of a tensor. */
export interface TensorSize {
  readonly name: string;
  readonly bytes: number | undefined;
  readonly dtypeName: string;
}

type PlanFacts = Pick<ModelPlan, 'buffers'> & Partial<Pick<ModelPlan, 'fusionUnits' | 'functions' | 'tags' | 'units'>>;

const found = new WeakMap<PlanFacts, ReadonlyMap<string, { readonly bytes: number; readonly dtype?: { readonly name: string; readonly unit: string | undefined }; readonly tile?: string }>>();

/** Per tensor name: its plan buffer's data bytes, the type its compute unit stores it in, and the tfu that tiles it. */
function planFacts(plan: PlanFacts) {
  let facts = found.get(plan);
  if (facts !== undefined) return facts;
  const tiled = new Map((plan.fusionUnits ?? []).filter((u) => u.kind === 'tfu').flatMap((u) => u.internal.map((t) => [t, u.name] as const)));
  const unitOfFunction = new Map((plan.functions ?? []).map((f) => [f.name, f.unit]));
  const tags = plan.tags?.tensors ?? [];
  const tagOfMemory = new Map(tags.flatMap((t) => (t.memory === undefined ? [] : [[t.memory, t] as const])));
  const tagOfName = new Map(tags.flatMap((t) => t.tensors.map((name) => [name, t] as const)).reverse());
  const byId = new Map(plan.buffers.map((b) => [b.id, b]));
  // a tensor sharing another's bytes (an in-place op's output) has the tag of the buffer it shares
  const tagOf = (b: PlanFacts['buffers'][number]): (typeof tags)[number] | undefined => {
    for (let at: typeof b | undefined = b; at !== undefined; at = at.alias === undefined ? undefined : byId.get(at.alias.parent)) {
      const tag = tagOfMemory.get(at.id);
      if (tag !== undefined) return tag;
    }
    return tagOfName.get(b.name);
  };
  const unitsStoring = (dtype: string) => (plan.units ?? []).filter((u) => u.activations === dtype);
  const map = new Map<string, { bytes: number; dtype?: { name: string; unit: string | undefined }; tile?: string }>();
  for (const b of plan.buffers) {
    if (b.kind === 'scratch' || b.kind === 'cache' || map.has(b.name)) continue;
    const tag = tagOf(b);
    const only = tag === undefined ? [] : unitsStoring(tag.dtype);
    const unit = tag?.function === undefined ? (only.length === 1 ? only[0]!.name : undefined) : unitOfFunction.get(tag.function);
    map.set(b.name, { bytes: b.bytes, ...(tag !== undefined && { dtype: { name: tag.dtype, unit } }), ...(tiled.has(b.name) && { tile: tiled.get(b.name)! }) });
  }
  found.set(plan, map);
  facts = map;
  return facts;
}

/** How `value` is planned when that is not its shape × dtype; undefined when it is, or when it has no buffer or no known size. */
export function plannedSizeOf(plan: PlanFacts | undefined, value: TensorSize): PlannedSize | undefined {
  if (plan === undefined || value.bytes === undefined) return undefined;
  const f = planFacts(plan).get(value.name);
  if (f === undefined || f.bytes === value.bytes) return undefined;
  const dtype = f.dtype !== undefined && f.dtype.name !== value.dtypeName ? f.dtype : undefined;
  return { bytes: f.bytes, full: value.bytes, fullDtype: value.dtypeName, ...(dtype !== undefined && { dtype }), ...(f.tile !== undefined && { tile: f.tile }) };
}

/** For Details: "363 KiB as int8 on npu (1.42 MiB as float32)", "776 KiB: a tile of 2.84 MiB in fusion unit tfu0". */
export function plannedSizeWords(p: PlannedSize): string {
  const as = p.dtype === undefined ? '' : ` as ${p.dtype.name}${p.dtype.unit === undefined ? '' : ` on ${p.dtype.unit}`}`;
  if (p.tile !== undefined) return `${formatBytes(p.bytes)}${as}: a tile of ${formatBytes(p.full)}${as === '' ? '' : ` (as ${p.fullDtype})`} in fusion unit ${p.tile}`;
  if (as !== '') return `${formatBytes(p.bytes)}${as} (${formatBytes(p.full)} as ${p.fullDtype})`;
  return `${formatBytes(p.bytes)} planned (${formatBytes(p.full)} as ${p.fullDtype})`;
}

/** For an edge or a table cell, beside the full size: "363 KiB int8 on npu", "776 KiB tile in tfu0". */
export function plannedSizeShort(p: PlannedSize): string {
  if (p.tile !== undefined) return `${formatBytes(p.bytes)} tile in ${p.tile}`;
  if (p.dtype !== undefined) return `${formatBytes(p.bytes)} ${p.dtype.name}${p.dtype.unit === undefined ? '' : ` on ${p.dtype.unit}`}`;
  return `${formatBytes(p.bytes)} planned`;
}
