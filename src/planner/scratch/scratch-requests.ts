// Scratch requests of a graph (METHODS.md M4 input): for every scheduled node,
// the target's scratch rules for its op type, sized by fixed bytes or by a
// formula of the node's shapes; a TensorFlow Lite op takes the rules of the
// ONNX op it computes the same as, its shapes shown the ONNX way
// (tflite-view.ts). Depends only on the model's IR types and the planner.

import type { InferredGraph } from '../../model/inferred';
import { alignUp, type PlanDiagnostic } from '../problem/build-buffers';
import { formatLargeCount, MAX_BYTES, MAX_EXACT_POWER } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { evaluateScratchFormula, parseScratchFormula, type Formula, type FormulaTensors } from './formula';
import { ruleViews, type RuleView } from './tflite-view';
import type { Schedule } from '../problem/schedule';
import { scratchRegionOf, type ScratchRule, type TargetProfile } from '../targets/target';

/** One scratch buffer an op needs while it runs (live during its step only). */
export interface ScratchRequest {
  readonly node: string;
  readonly opType: string;
  readonly step: number;
  readonly label: string; // the rule's name, e.g. 'im2col'
  readonly bytes: number; // fixed size, or the minimum of a variable-size buffer
  readonly size: number; // bytes rounded up to the region's alignment
  readonly variable: boolean;
  readonly latencyCritical: boolean;
  readonly overlay: boolean;
  readonly region: string;
  readonly alignment: number;
  readonly rule: number; // index of the rule among the node's rules
  readonly formula?: string; // the rule's formula of the op's shapes, when it is not a fixed size
}

/** A scratch buffer whose rule gives no size for its op: planned as 0 bytes, so the peak is a lower estimate. */
export interface UnknownScratch {
  readonly tensor: string; // "<node>:<rule name>", as the scratch buffer would be named
  readonly op: string;
  readonly reason: string;
  readonly scratch: true;
}

/**
 * The scratch requests of every scheduled node, in execution order; a rule
 * whose formula cannot be evaluated for a node is pushed to `unknown` (and a
 * diagnostic), never counted as 0 bytes without a word.
 */
export function scratchRequests(
  graph: InferredGraph,
  schedule: Schedule,
  target: TargetProfile,
  diagnostics: PlanDiagnostic[],
  unknown: UnknownScratch[] = [],
): ScratchRequest[] {
  const rules = target.scratch.rules;
  if (rules.length === 0) return [];
  const formulas = rules.map((r) => (r.formula === undefined ? undefined : parseScratchFormula(r.formula)));
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const requests: ScratchRequest[] = [];
  let total = 0; // every request's size and alignment so far: the most they can add to a region's span
  schedule.order.forEach((index, step) => {
    const node = graph.nodes[index]!;
    const views = ruleViews(node, values);
    let k = 0;
    rules.forEach((rule, r) => {
      const view = views.find((v) => v.opType === rule.opType);
      if (view === undefined) return;
      const region = scratchRegionOf(target, rule.latencyCritical);
      const bytes = withinExactRange(ruleBytes(rule, formulas[r], view, node.attributes), region.alignment, total);
      if ('error' in bytes) {
        // the target's rule is named: the size comes from the target profile, not from the model
        const what = `scratch "${shortName(rule.name)}" (scratch.rules[${r}]) of ${node.opType}`;
        const reason = `${what}: its formula "${shortName(rule.formula ?? '')}" gives no size here: ${bytes.error}`;
        diagnostics.push({ code: 'scratch-size', message: `${what} '${node.name}' is of unknown size, planned as 0 bytes: ${bytes.error}`, node: node.name });
        unknown.push({ tensor: `${node.name}:${rule.name}`, op: node.opType, reason, scratch: true });
        return;
      }
      if (bytes.bytes === 0) return;
      total += alignUp(bytes.bytes, region.alignment) + region.alignment;
      requests.push({
        node: node.name,
        opType: node.opType,
        step,
        label: rule.name,
        bytes: bytes.bytes,
        size: alignUp(bytes.bytes, region.alignment),
        variable: rule.variable,
        latencyCritical: rule.latencyCritical,
        overlay: rule.overlay,
        region: region.name,
        alignment: region.alignment,
        rule: k++,
        ...(rule.formula !== undefined && { formula: rule.formula }),
      });
    });
  });
  return requests;
}

/**
 * A rule's size, unless its buffer, aligned and added to the scratch before it
 * (`before`), passes what the planner computes exactly: then it has none here,
 * so one rule's runaway formula leaves one buffer unknown, not the plan refused.
 */
function withinExactRange(bytes: { bytes: number } | { error: string }, alignment: number, before: number): { bytes: number } | { error: string } {
  if ('error' in bytes || before + alignUp(bytes.bytes, alignment) + alignment <= MAX_BYTES) return bytes;
  return { error: `${formatLargeCount(bytes.bytes)} bytes, with the ${formatLargeCount(before)} bytes of scratch before it, pass ${MAX_EXACT_POWER} (${MAX_BYTES}), the most the planner computes exactly` };
}

function ruleBytes(rule: ScratchRule, formula: Formula | undefined, view: RuleView, attributes: FormulaTensors['attributes']): { bytes: number } | { error: string } {
  if (formula === undefined) return { bytes: rule.bytes ?? 0 };
  return evaluateScratchFormula(formula, { inputs: view.inputs, outputs: view.outputs, ...(attributes !== undefined && { attributes }) });
}
