// A buffer that kept its size but not its place moved one of two ways: to
// another region (as a spill does), or to another offset in the same region.
// The diff says which, in one vocabulary for the CLI and the page. Depends only on the diff types.

import type { BufferChange, BufferStatus } from './diff-types';

/** How a buffer of status `moved` moved. */
export type MoveKind = 'between-regions' | 'within-region';

/** The words for each way, as counts and filters name them. */
export const MOVE_WORDS: Readonly<Record<MoveKind, string>> = {
  'between-regions': 'moved between regions',
  'within-region': 'moved within a region',
};

/** The way a buffer of status `moved` moved; undefined for any other status. */
export function moveKindOf(change: Pick<BufferChange, 'status' | 'regionA' | 'regionB'>): MoveKind | undefined {
  if (change.status !== 'moved') return undefined;
  return change.regionA !== change.regionB ? 'between-regions' : 'within-region';
}

/** A buffer's change as a list counts and filters it: its status, `moved` split by the way it moved. */
export type ChangeKind = Exclude<BufferStatus, 'moved'> | MoveKind;

/** The kind a buffer's change is counted under. */
export function changeKindOf(change: Pick<BufferChange, 'status' | 'regionA' | 'regionB'>): ChangeKind {
  return moveKindOf(change) ?? (change.status as Exclude<BufferStatus, 'moved'>);
}
