// What the colours and lines of the heap diagram mean: the colour classes its
// buffers have (a class no buffer has is left out, so a small frame's one line
// of keys names what is drawn), marks for buffers that share bytes or spilled
// when some do, and the lower bound and peak lines. Shared by the heap pane
// and Compare's diagrams.

import { KIND_CLASSES, legendClasses, type ClassLegendItem } from './buffer-classes';
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
  const kinds = data.map(drawnKinds);
  const present = (kind: string): boolean => kinds.some((k) => k.classes.has(kind));
  return { classes: legendClasses(present('kv')).filter((item) => present(item.kind)), shared: kinds.some((k) => k.shared), spilled: kinds.some((k) => k.spilled) };
}

/** The legend of the diagrams of `data`. */
export function HeapLegend({ data }: { readonly data: readonly HeapData[] }) {
  const keys = legendKeys(data);
  return (
    <ul className="heap-legend" aria-label="Legend">
      {keys.classes.map((item) => (
        <li key={item.kind} title={item.title}>
          <span className={`swatch swatch-${item.kind}`} aria-hidden="true" />
          {item.label}
        </li>
      ))}
      {keys.shared && (
        <li>
          <span className="swatch swatch-shared" aria-hidden="true" />
          shares bytes
        </li>
      )}
      <li>
        <span className="swatch-line swatch-bound" aria-hidden="true" />
        <span>
          <span className="heap-key-more">lower </span>bound
        </span>
      </li>
      <li>
        <span className="swatch-line swatch-peak" aria-hidden="true" />
        peak
      </li>
      {keys.spilled && (
        <li title="the buffer wanted a faster region of the memory map and spilled to this one">
          <span className="spill-mark" aria-hidden="true" />
          spilled
        </li>
      )}
    </ul>
  );
}
