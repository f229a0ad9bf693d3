// The diagnostics of a target's pin rules that keep no buffer of the model in
// their region: a misspelled tensor name or op type would otherwise leave the
// plan as if the rule were not there, without a word. Depends only on
// src/shared and the planner.

import { didYouMean } from '../../shared/close-names';
import { escapeControlsInName } from '../../shared/control-chars';
import { shortName } from '../../shared/short-name';
import type { BuiltProblem } from '../problem/build-problem';
import type { PlanDiagnostic } from '../problem/build-buffers';
import type { TargetProfile } from '../targets/target';
import { pinMatches } from './spill-items';

/** The code of a pin rule that matched no buffer: a target's setting ignored, told with the options a model ignored. */
export const UNMATCHED_PIN = 'unmatched-pin';

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
