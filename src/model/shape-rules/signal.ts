// Shape rules for signal-processing ops: DFT (axis attribute, or input from
// opset 20), STFT, the window generators and MelWeightMatrix. Pure; no DOM.

import { DT } from '../dtype';
import { onnxTable } from './rule-helpers';
import { fail, guardRules, inputFact, inputScalar, makeFact, normalizeAxis, requireInput, requireShape } from './tensor-facts';
import type { Dim, RuleContext, RuleResult } from './types';

/** Bins kept by a one-sided transform of length n: floor(n/2) + 1. */
const oneSided = (n: Dim): Dim => (n === undefined ? undefined : Math.floor(n / 2) + 1);

/**
 * DFT: the last axis becomes 2 (real, imaginary); the transformed axis takes
 * dft_length (or keeps its size) and is halved + 1 when onesided.
 */
function dftRule(ctx: RuleContext): RuleResult {
  const inputFactX = requireInput(ctx, 0, 'input');
  const x = requireShape(inputFactX, 'input');
  const axisDefault = ctx.opset >= 20 ? -2 : 1;
  const axisGiven = ctx.opset >= 20 ? inputScalar(ctx, 2) : ctx.int('axis', axisDefault);
  if (ctx.opset >= 20 && inputFact(ctx, 2) !== undefined && axisGiven === undefined) {
    return [makeFact(inputFactX.dtype, [...x.slice(0, -1).map(() => undefined), 2])];
  }
  const axis = normalizeAxis(axisGiven ?? axisDefault, x.length);
  if (axis === x.length - 1) fail('DFT cannot transform the last (complex) axis');
  const lengthGiven = inputFact(ctx, 1) !== undefined;
  const length: Dim = lengthGiven ? inputScalar(ctx, 1) : x[axis];
  const out: Dim[] = [...x.slice(0, -1), 2];
  out[axis] = ctx.int('onesided', 0) === 1 && ctx.int('inverse', 0) === 0 ? oneSided(length) : length;
  return [makeFact(inputFactX.dtype, out)];
}

/** STFT: [batch, frames, bins, 2]; frames from signal length, frame_step and frame length. */
function stftRule(ctx: RuleContext): RuleResult {
  const signalFact = requireInput(ctx, 0, 'signal');
  const signal = requireShape(signalFact, 'signal');
  const step = inputScalar(ctx, 1);
  const window = inputFact(ctx, 2)?.shape?.[0];
  const frameLength: Dim = inputFact(ctx, 3) !== undefined ? inputScalar(ctx, 3) : window;
  const length = signal[1];
  const frames =
    length === undefined || step === undefined || frameLength === undefined
      ? undefined
      : Math.floor((length - frameLength) / step) + 1;
  const bins = ctx.int('onesided', 1) === 1 ? oneSided(frameLength) : frameLength;
  return [makeFact(signalFact.dtype, [signal[0], frames, bins, 2])];
}

/** HannWindow / HammingWindow / BlackmanWindow: a 1-D window of the size input. */
function windowRule(ctx: RuleContext): RuleResult {
  return [makeFact(ctx.int('output_datatype', DT.FLOAT), [inputScalar(ctx, 0)])];
}

/** MelWeightMatrix: [floor(dft_length / 2) + 1, num_mel_bins]. */
function melWeightRule(ctx: RuleContext): RuleResult {
  return [makeFact(ctx.int('output_datatype', DT.FLOAT), [oneSided(inputScalar(ctx, 1)), inputScalar(ctx, 0)])];
}

/** Shape rules for signal processing. */
export const signalRules = guardRules(
  onnxTable({
    DFT: dftRule,
    STFT: stftRule,
    HannWindow: windowRule,
    HammingWindow: windowRule,
    BlackmanWindow: windowRule,
    MelWeightMatrix: melWeightRule,
  }),
);
