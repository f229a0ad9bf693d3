// The heap diagram's colours, read from the page's CSS custom properties, so
// the canvas follows the light or dark theme; the buffers and the live-bytes
// curve under them draw with the same palette.

import { CLASS_COLOURS, KIND_CLASSES } from './buffer-classes';

/** Colours, read from the page's CSS custom properties (light or dark). */
export interface HeapPalette {
  readonly kinds: readonly string[]; // by KIND_CLASSES index
  readonly text: string;
  readonly muted: string;
  readonly grid: string;
  readonly laneBackground: string;
  readonly lowerBound: string;
  readonly peak: string;
  readonly limit: string;
  readonly selection: string;
}

/** Reads the palette from `element`'s computed style. */
export function readPalette(element: Element): HeapPalette {
  const style = getComputedStyle(element);
  const get = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
  return {
    kinds: KIND_CLASSES.map((k) => get(`--heap-${k}`, CLASS_COLOURS[k])),
    text: get('--text', '#1b2130'),
    muted: get('--muted', '#627084'),
    grid: get('--border', '#e1e5eb'),
    laneBackground: get('--surface-2', '#f1f3f6'),
    lowerBound: get('--heap-lower-bound', '#0f8a4a'),
    peak: get('--heap-peak', '#c4313b'),
    limit: get('--warning', '#a45c00'),
    selection: get('--heap-selection', '#f0a020'),
  };
}
