// How big a buffer's rectangle must be for its name, how many names a drawing
// writes, and the side of the spill notch: one set of rules for the heap canvas
// (draw-heap.ts) and the SVG export (export/heap-svg.ts), so both label alike.

/** Rectangles at least this wide and tall (CSS pixels) get their buffer's name. */
export const LABEL_MIN = { width: 56, height: 13 } as const;

/** Most names drawn per frame (per lane in the export). */
export const MAX_LABELS = 400;

/** Side of the notch in a spilled buffer's top-left corner, CSS pixels, at most. */
export const SPILL_MARK = 8;
