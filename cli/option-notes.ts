// The notes on stderr for the options a model had no use for (a misspelled
// --dim, a --shape of no tensor, a target's pin of no buffer) and for one dim given by two spellings, in
// the diagnostics' own words: the same lines from plan, diff, inspect and sweep.

import { TFLITE_FIXED_SHAPES } from '../src/model/infer/tflite-shapes';
import { PINS_SPILL_OFF, PINS_UNUSED, UNMATCHED_PIN } from '../src/planner/spill/unmatched-pins';
import type { Output } from './io';

/** A plan or an inferred model: what its inference and planning noted. */
type Diagnosed = { readonly diagnostics?: readonly { readonly code: string; readonly message: string }[] };

/**
 * Diagnostics of a --dim, --b-dim, --shape or --input the model had no use for, of a target file's pin
 * rule that matched no buffer, and of pins on a target that cannot spill: the setting was ignored.
 */
const IGNORED_OPTION_CODES: ReadonlySet<string> = new Set(['unknown-dim', 'unused-binding', 'bad-input-value', TFLITE_FIXED_SHAPES, UNMATCHED_PIN, PINS_UNUSED]);

/**
 * The options given that the plan ignored, each in its diagnostic's words
 * (`--dim sequence_lenght=4096 is ignored: … (did you mean 'sequence_length'?)`):
 * a note on stderr, so a CI log shows a misspelled name, and a refusal under --strict.
 */
export function ignoredOptions(plan: Diagnosed): string[] {
  return (plan.diagnostics ?? []).filter((d) => IGNORED_OPTION_CODES.has(d.code)).map((d) => d.message);
}

/**
 * A target's pins left unapplied because spilling is off (--spill off): a note with or without --strict, never a
 * refusal, since the plan without spilling was asked for and pins act only in the spill.
 */
export function pinsSpillOff(plan: Diagnosed): string[] {
  return (plan.diagnostics ?? []).filter((d) => d.code === PINS_SPILL_OFF).map((d) => d.message);
}

/**
 * The note on stderr for each option the model ignored (`heapscope: note: FILE: --dim batchh=2 is ignored: …`),
 * as plan, inspect and sweep give it; under `strict`, which refuses those in its own lines, only the notes it
 * does not refuse (pins left unapplied by --spill off).
 */
export function noteIgnoredOptions(io: Output, file: string, model: Diagnosed, strict = false): void {
  for (const message of [...(strict ? [] : ignoredOptions(model)), ...pinsSpillOff(model)]) io.err(`heapscope: note: ${file}: ${message}\n`);
}

/** The diagnostics of one dim given by two spellings with different values (`dim 'seq_len' given twice …: the last applies`), in their words. */
export function dimsGivenTwice(plan: Diagnosed): string[] {
  return (plan.diagnostics ?? []).filter((d) => d.code === 'dim-given-twice').map((d) => d.message);
}

/**
 * The note on stderr for one dim given by two spellings, as for one option given twice
 * (`heapscope: note: FILE: dim 'seq_len' given twice …`), as plan and sweep give it.
 */
export function noteDimsGivenTwice(io: Output, file: string, model: Diagnosed): void {
  for (const message of dimsGivenTwice(model)) io.err(`heapscope: note: ${file}: ${message}\n`);
}
