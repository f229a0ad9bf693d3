// The box the pane last brought into view on request (a search match, a
// selection) and where that left the camera: while the user has not moved
// the view since, a new placement of the same layout (the final one after its
// preview, a re-layout of the same structure) shows that box again instead of
// the first view or the old camera. Pure; graph-view.tsx keeps one.

import { revealCamera, sameView, type Camera, type PaneSize } from './camera';
import type { PlacedBox } from '../../../worker/layout/protocol';

/** A request to bring a box into view. */
export interface Jump {
  readonly box: string; // the box's id
  readonly key: string; // the layout input's key it was made on: another structure drops it
  readonly always: boolean; // centre the box even when it is in view
  readonly camera: Camera | undefined; // where it left the view; undefined until a placement could show it
}

/** What the view knows when a new placement is drawn. */
export interface JumpCheck {
  readonly key: string; // the new placement's layout key
  readonly current: Camera; // the camera now
  readonly moving: boolean; // an animated move of the pane's (the jump's own) is under way
}

/**
 * Whether `jump` still holds for a new placement: made on the same structure,
 * and the user's last move of the camera (a drag, a wheel, the minimap; Fit
 * and the keys drop the jump themselves): not yet placed, its animation still
 * running, or the camera still where it left it.
 */
export function jumpHolds(jump: Jump | undefined, check: JumpCheck): jump is Jump {
  if (jump === undefined || jump.key !== check.key) return false;
  return jump.camera === undefined || check.moving || sameView(check.current, jump.camera);
}

/**
 * The camera that shows `jump`'s box placed at `box` in a pane of `size`: from
 * the camera the jump left (else `current`), moved as revealCamera moves it,
 * or left there when the box is in view and the jump need not centre it;
 * undefined when the placement lacks the box.
 */
export function jumpCamera(jump: Jump, box: PlacedBox | undefined, size: PaneSize, current: Camera, hidden: PaneSize): Camera | undefined {
  if (box === undefined) return undefined;
  const from = jump.camera ?? current;
  return revealCamera(box, size, from, jump.always, hidden) ?? from;
}
