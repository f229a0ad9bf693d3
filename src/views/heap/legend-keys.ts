// Which keys a heap legend names: the colour classes its buffers have (a class
// no buffer has is left out), and the marks for shared bytes and spilled
// buffers when some buffer carries them. One reading for the heap pane,
// Compare's diagrams and the SVG export, so the two legends cannot differ.

import type { ModelPlan } from '../../planner/plan';
import { bufferClass, KIND_CLASSES, legendClasses, type ClassLegendItem } from './buffer-classes';
import type { HeapData } from './heap-data';

/** The keys a legend of `data` (one plan, or both sides of a comparison) shows. */
export interface LegendKeys {
  readonly classes: readonly ClassLegendItem[];
  readonly shared: boolean; // some buffer shares its bytes with a parent
  readonly spilled: boolean; // some buffer spilled from a faster region
}

/** What one diagram's buffers are: their classes and marks. */
interface DrawnKinds {
  readonly classes: ReadonlySet<string>;
  readonly shared: boolean;
  readonly spilled: boolean;
}

/** Each diagram's kinds, found once per view model (the legend renders with every hover and selection). */
const drawnCache = new WeakMap<HeapData, DrawnKinds>();

function drawnKinds(d: HeapData): DrawnKinds {
  let kinds = drawnCache.get(d);
  if (kinds === undefined) {
    const classes = new Set<string>();
    let shared = false;
    let spilled = false;
    for (let i = 0; i < d.count; i++) {
      classes.add(KIND_CLASSES[d.kindClass[i]!]!);
      if (d.shared[i] === 1) shared = true;
      if (d.spilled[i] === 1) spilled = true;
    }
    kinds = { classes, shared, spilled };
    drawnCache.set(d, kinds);
  }
  return kinds;
}

/** The keys of the buffers of every diagram in `data`. */
export function legendKeys(data: readonly HeapData[]): LegendKeys {
  return keysOf(data.map(drawnKinds));
}

/** The keys of `plan`'s buffers, read from the plan as heapData reads them (for a drawing made without a view model: the SVG export). */
export function planLegendKeys(plan: Pick<ModelPlan, 'buffers'>, kv: ReadonlySet<string>): LegendKeys {
  const classes = new Set<string>(plan.buffers.map((b) => bufferClass(b, kv)));
  return keysOf([{ classes, shared: plan.buffers.some((b) => b.alias !== undefined), spilled: plan.buffers.some((b) => b.wanted !== undefined) }]);
}

function keysOf(kinds: readonly DrawnKinds[]): LegendKeys {
  const present = (kind: string): boolean => kinds.some((k) => k.classes.has(kind));
  return { classes: legendClasses(present('kv')).filter((item) => present(item.kind)), shared: kinds.some((k) => k.shared), spilled: kinds.some((k) => k.spilled) };
}
