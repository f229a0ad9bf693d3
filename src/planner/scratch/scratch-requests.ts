// Scratch requests of a graph (METHODS.md M4 input): for every scheduled node,
// the target's scratch rules for its op type, sized by fixed bytes or by a
// formula of the node's shapes. Depends only on the model's IR types and the planner.

import type { InferredGraph, InferredNode, InferredValue } from '../../model/inferred';
import { alignUp, type PlanDiagnostic } from '../problem/build-buffers';
import { evaluateScratchFormula, parseScratchFormula, type Formula, type TensorFacts } from './formula';
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
}

/** The scratch requests of every scheduled node, in execution order. */
export function scratchRequests(
  graph: InferredGraph,
  schedule: Schedule,
  target: TargetProfile,
  diagnostics: PlanDiagnostic[],
): ScratchRequest[] {
  const rules = target.scratch.rules;
  if (rules.length === 0) return [];
  const formulas = rules.map((r) => (r.formula === undefined ? undefined : parseScratchFormula(r.formula)));
  const values = new Map(graph.values.map((v) => [v.name, v]));
  const requests: ScratchRequest[] = [];
  schedule.order.forEach((index, step) => {
    const node = graph.nodes[index]!;
    let k = 0;
    rules.forEach((rule, r) => {
      if (!matches(rule, node)) return;
      const bytes = ruleBytes(rule, formulas[r], node, values, diagnostics);
      if (bytes === undefined || bytes === 0) return;
      const region = scratchRegionOf(target, rule.latencyCritical);
      requests.push({
        node: node.name,
        opType: node.opType,
        step,
        label: rule.name,
        bytes,
        size: alignUp(bytes, region.alignment),
        variable: rule.variable,
        latencyCritical: rule.latencyCritical,
        overlay: rule.overlay,
        region: region.name,
        alignment: region.alignment,
        rule: k++,
      });
    });
  });
  return requests;
}

function matches(rule: ScratchRule, node: InferredNode): boolean {
  if (node.domain === '') return rule.opType === node.opType;
  return rule.opType === `${node.domain}::${node.opType}`;
}

function ruleBytes(
  rule: ScratchRule,
  formula: Formula | undefined,
  node: InferredNode,
  values: ReadonlyMap<string, InferredValue>,
  diagnostics: PlanDiagnostic[],
): number | undefined {
  if (formula === undefined) return rule.bytes;
  const facts = (name: string): TensorFacts | undefined => {
    const value = name === '' ? undefined : values.get(name);
    return value === undefined ? undefined : { shape: value.shape, bytes: value.bytes };
  };
  const result = evaluateScratchFormula(formula, { inputs: node.inputs.map(facts), outputs: node.outputs.map(facts) });
  if ('error' in result) {
    diagnostics.push({
      code: 'scratch-size',
      message: `scratch "${rule.name}" of ${node.opType} '${node.name}' is left out: ${result.error}`,
      node: node.name,
    });
    return undefined;
  }
  return result.bytes;
}
