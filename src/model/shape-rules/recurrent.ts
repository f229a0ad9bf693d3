// Shape rules for the recurrent ops RNN, GRU and LSTM (direction, hidden_size,
// layout 0 = sequence-major, 1 = batch-major). Pure; no DOM.

import { onnxTable } from './rule-helpers';
import { guardRules, inputFact, makeFact, requireInput } from './tensor-facts';
import type { Dim, RuleContext, RuleResult, ShapeRule } from './types';

/**
 * Shared rule. `gates` is how many stacked gate matrices W holds (1 for RNN,
 * 3 for GRU, 4 for LSTM), used to recover hidden_size from W or R when the
 * attribute is missing. Outputs: Y, Y_h and, for LSTM, Y_c.
 */
function recurrentRule(gates: number): ShapeRule {
  return (ctx: RuleContext): RuleResult => {
    const xFact = requireInput(ctx, 0, 'X');
    const x = xFact.shape;
    const batchMajor = ctx.int('layout', 0) === 1;
    const seq = batchMajor ? x?.[1] : x?.[0];
    const batch = batchMajor ? x?.[0] : x?.[1];
    const directions = ctx.string('direction', 'forward') === 'bidirectional' ? 2 : 1;
    const hidden = hiddenSize(ctx, gates);
    const y: Dim[] = batchMajor ? [batch, seq, directions, hidden] : [seq, directions, batch, hidden];
    const state: Dim[] = batchMajor ? [batch, directions, hidden] : [directions, batch, hidden];
    const dtype = xFact.dtype;
    return [makeFact(dtype, y), makeFact(dtype, state), makeFact(dtype, state)];
  };
}

/** hidden_size from the attribute, else R's last dim, else W's gate rows / gates. */
function hiddenSize(ctx: RuleContext, gates: number): Dim {
  const attr = ctx.int('hidden_size', 0);
  if (attr > 0) return attr;
  const r = inputFact(ctx, 2)?.shape;
  if (r?.length === 3 && r[2] !== undefined) return r[2];
  const rows = inputFact(ctx, 1)?.shape?.[1];
  return rows === undefined ? undefined : rows / gates;
}

/** Shape rules for recurrent ops. */
export const recurrentRules = guardRules(
  onnxTable({
    RNN: recurrentRule(1),
    GRU: recurrentRule(3),
    LSTM: recurrentRule(4),
  }),
);
