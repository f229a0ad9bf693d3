// Which changed dim explains a buffer's growth. A plan does not record which
// symbolic dims a tensor's shape depends on, so a buffer's data bytes are
// compared with the ratios of the dims the two plans were made with: a buffer
// that grew exactly by (b/a) of one dim, a product of dims, or a square (a
// seq × seq attention map) is put down to those dims; a buffer empty on one
// side only, to the dims planned as 0 there. Depends only on src/shared.

import type { DimChange } from './diff-types';
import { ownValue } from '../../shared/own';

/** Most changed dims combined when searching for the growth ratio. */
const MAX_DIMS = 4;
/** Largest power of one dim a buffer may scale with (seq² in attention). */
const MAX_POWER = 2;

/** The dims that differ between two settings, sorted by name. */
export function changedDims(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): DimChange[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names.filter((name) => ownValue(a, name) !== ownValue(b, name)).map((name) => ({ name, a: ownValue(a, name), b: ownValue(b, name) }));
}

/** A way the changed dims scale a buffer: dim names with powers. */
interface Scaling {
  readonly label: string; // 'batch', 'batch×seq', 'seq²'
  readonly ratio: number;
  readonly order: number; // sum of powers: simpler explanations first
}

/**
 * Every scaling of up to MAX_DIMS changed dims with powers up to MAX_POWER,
 * simplest first; a ratio of 1 explains nothing and is left out.
 */
export function dimScalings(changes: readonly DimChange[]): Scaling[] {
  const dims = changes.filter((c) => c.a !== undefined && c.b !== undefined && c.a > 0 && c.b > 0).slice(0, MAX_DIMS);
  const out: Scaling[] = [];
  const powers = dims.map(() => 0);
  for (;;) {
    let k = 0;
    while (k < dims.length && powers[k] === MAX_POWER) powers[k++] = 0;
    if (k === dims.length) break;
    powers[k]! += 1;
    const ratio = dims.reduce((r, d, i) => r * (d.b! / d.a!) ** powers[i]!, 1);
    if (ratio === 1) continue;
    const label = dims.flatMap((d, i) => (powers[i] === 0 ? [] : [powers[i] === 1 ? d.name : `${d.name}²`])).join('×');
    out.push({ label, ratio, order: powers.reduce((s, p) => s + p, 0) });
  }
  return out.sort((x, y) => x.order - y.order || x.label.localeCompare(y.label));
}

/**
 * The label of the simplest scaling that takes `bytesA` to `bytesB` (within
 * the rounding of sub-byte types), or undefined when none does. Equally
 * simple scalings with the same ratio (two dims changed alike) are all
 * named: 'seq_len or total_seq_len'.
 */
export function growthDims(bytesA: number, bytesB: number, scalings: readonly Scaling[]): string | undefined {
  if (bytesA <= 0 || bytesA === bytesB) return undefined;
  const fits = scalings.filter((s) => Math.abs(bytesA * s.ratio - bytesB) <= Math.max(1, s.ratio));
  const best = fits[0];
  if (best === undefined) return undefined;
  return fits.filter((s) => s.order === best.order && s.ratio === best.ratio).map((s) => s.label).join(' or ');
}

/**
 * The dims that explain a buffer empty on one side only, where no ratio can:
 * those planned as 0 on that side and not on the other (an empty past cache,
 * past_seq_len 0 → 256), 'a or b' when several were; undefined when none was.
 */
export function emptyGrowthDims(bytesA: number, bytesB: number, changes: readonly DimChange[]): string | undefined {
  if ((bytesA === 0) === (bytesB === 0)) return undefined;
  const zeroOn = bytesA === 0 ? (c: DimChange) => c.a === 0 && (c.b ?? 0) > 0 : (c: DimChange) => c.b === 0 && (c.a ?? 0) > 0;
  const names = changes.filter(zeroOn).map((c) => c.name);
  return names.length === 0 ? undefined : names.join(' or ');
}
