// The diagnostics of a target's pin rules that keep no buffer of the model in
// their region: a misspelled tensor name or op type would otherwise leave the
// plan as if the rule were not there, without a word. And of pins on a plan
// that does not spill: pins act only in the spill. Depends only on
// src/shared and the planner.

import { didYouMean } from '../../shared/close-names';
import { escapeControlsInName } from '../../shared/control-chars';
import { shortName } from '../../shared/short-name';
import type { BuiltProblem } from '../problem/build-problem';
import type { PlanDiagnostic } from '../problem/build-buffers';
import { activationRegionOf, type TargetProfile } from '../targets/target';
import { memoryMapOf } from './memory-map';
import { pinMatches } from './spill-items';

/** The code of a pin rule that matched no buffer: a target's setting ignored, told with the options a model ignored. */
export const UNMATCHED_PIN = 'unmatched-pin';

/**
 * The code of a target's pins left unapplied because the target cannot spill (a memory map of one region, a first
 * region without a size limit, TensorFlow Lite Micro's one arena): the file's rules never act, refused under --strict.
 */
export const PINS_UNUSED = 'pins-unused';

/**
 * The code of a target's pins left unapplied because spilling is off (--spill off, `planning.spill`): a plan chosen
 * without spilling, whose pins are part of the spill, told in a note but not refused under --strict.
 */
export const PINS_SPILL_OFF = 'pins-spill-off';

/** A name from a file as a sentence quotes it: cut, and with its control characters visible. */
const quoted = (name: string): string => `'${escapeControlsInName(shortName(name))}'`;

/**
 * One diagnostic per pin of `target` that matches no buffer of `built`, by
 * its place in the profile (`planning.pins[1]`), with the names close to the
 * one it gives: `planning.pins[0] (tensor 'R17' to sram) is ignored: no buffer
 * is named 'R17' (did you mean 'r17'?)`.
 */
export function unmatchedPins(target: TargetProfile, built: BuiltProblem): PlanDiagnostic[] {
  const pins = target.planning.pins ?? [];
  if (pins.length === 0) return [];
  const { problem, info } = built;
  const opOf = new Map(built.steps.map((s) => [s.node, s.opType]));
  const made = problem.buffers.map((b, k) => ({ name: b.name, opType: opOf.get(info[k]!.node ?? '') }));
  return pins.flatMap((pin, i) => {
    if (made.some((b) => pinMatches(pin, b.name, b.opType))) return [];
    const rule = pin.tensor !== undefined ? `tensor ${quoted(pin.tensor)}` : `op type ${quoted(pin.opType!)}`;
    const why =
      pin.tensor !== undefined
        ? `no buffer is named ${quoted(pin.tensor)}${didYouMean(pin.tensor, made.map((b) => b.name))}`
        : `no op of type ${quoted(pin.opType!)} makes a buffer${didYouMean(pin.opType!, new Set(made.flatMap((b) => (b.opType === undefined ? [] : [b.opType]))))}`;
    return [{ code: UNMATCHED_PIN, message: `target pin planning.pins[${i}] (${rule} to ${quoted(pin.region)}) is ignored: ${why}` }];
  });
}

/**
 * The diagnostic of a target with pins whose plan does not spill (`spilled`
 * false): pins act only in the spill, so none of them keeps a buffer
 * anywhere; why the plan does not spill. None when the plan spills or the
 * target has no pins.
 */
export function unappliedPins(target: TargetProfile, spilled: boolean): PlanDiagnostic[] {
  const count = target.planning.pins?.length ?? 0;
  if (spilled || count === 0) return [];
  const rules = `the target's ${count === 1 ? 'pin' : `${count} pins`} (planning.pins) ${count === 1 ? 'is' : 'are'} not applied: the plan does not spill`;
  const map = memoryMapOf(target);
  const first = quoted(map[0]!.name);
  const home = quoted(activationRegionOf(target).name);
  if ((target.planning.spill ?? 'on') === 'off') return [{ code: PINS_SPILL_OFF, message: `${rules}, as spilling is off (--spill off or the target's planning.spill): every activation stays in ${home}` }];
  const why =
    target.planning.runtime === 'tflm'
      ? 'TensorFlow Lite Micro plans every activation in its one tensor arena'
      : map.length === 1
        ? `its memory map has one region, ${first}`
        : `the first region of its memory map, ${first}, has no size limit`;
  return [{ code: PINS_UNUSED, message: `${rules}, as ${why}` }];
}
