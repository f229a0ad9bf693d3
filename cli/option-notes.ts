// The notes on stderr for the options a model had no use for (a misspelled
// --dim, a --shape of no tensor, a target's pin of no buffer) and for one dim given by two spellings, in
// the diagnostics' own words: the same lines from plan, diff, inspect and sweep.

import { TFLITE_FIXED_SHAPES } from '../src/model/infer/tflite-shapes';
import { UNMATCHED_PIN } from '../src/planner/spill/unmatched-pins';
import type { Output } from './io';

/** A plan or an inferred model: what its inference and planning noted. */
type Diagnosed = { readonly diagnostics?: readonly { readonly code: string; readonly message: string }[] };

/**
 * Diagnostics of a --dim, --b-dim, --shape or --input the model had no use for, and of a target file's pin
 * rule that matched no buffer: the setting was ignored.
 */
const IGNORED_OPTION_CODES: ReadonlySet<string> = new Set(['unknown-dim', 'unused-binding', 'bad-input-value', TFLITE_FIXED_SHAPES, UNMATCHED_PIN]);

/**
 * The options given that the plan ignored, each in its diagnostic's words
 * (`--dim sequence_lenght=4096 is ignored: … (did you mean 'sequence_length'?)`):
 * a note on stderr, so a CI log shows a misspelled name, and a refusal under --strict.
 */
export function ignoredOptions(plan: Diagnosed): string[] {
  return (plan.diagnostics ?? []).filter((d) => IGNORED_OPTION_CODES.has(d.code)).map((d) => d.message);
}

/**
 * The note on stderr for each option the model ignored (`heapscope: note: FILE: --dim batchh=2 is ignored: …`),
 * as plan, inspect and sweep give it without --strict.
 */
export function noteIgnoredOptions(io: Output, file: string, model: Diagnosed): void {
  for (const message of ignoredOptions(model)) io.err(`heapscope: note: ${file}: ${message}\n`);
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
