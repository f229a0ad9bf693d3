// What the colours and lines of the heap diagram mean: the colour classes its
// buffers have (a class no buffer has is left out, so a small frame's one line
// of keys names what is drawn), marks for buffers that share bytes or spilled
// when some do, and the lower bound and peak lines. Shared by the heap pane
// and Compare's diagrams; the SVG export names the same keys (legend-keys.ts).

import type { HeapData } from './heap-data';
import { legendKeys } from './legend-keys';

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
