// Where a buffer sits in A and in B, in words for Compare's table: the region
// when the two differ, and whole bytes when the rounded offsets would read
// alike. No DOM.

import { formatBytes, formatCount } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import type { BufferChange } from '../../planner/diff/diff-types';

/** "sram 0 B → ext-ram 0 B", "1,024 B → 1,040 B" or "64.0 KiB → 128 KiB"; "—" when a side has no offset. */
export function offsetChangeText(c: BufferChange): string {
  if (c.offsetA === undefined || c.offsetB === undefined) return '—';
  const exact = formatBytes(c.offsetA) === formatBytes(c.offsetB) && c.offsetA !== c.offsetB;
  const at = (offset: number): string => (exact ? `${formatCount(offset)} B` : formatBytes(offset));
  const region = (name: string | undefined): string => (c.regionA !== c.regionB && name !== undefined ? `${shortName(name)} ` : '');
  return `${region(c.regionA)}${at(c.offsetA)} → ${region(c.regionB)}${at(c.offsetB)}`;
}
