// `heapscope plan`: decode, infer and plan one or more models for a target;
// print the plan's size and its explanation, as text or JSON (Lines).

import { decodeOnnx } from '../src/model/decode-onnx';
import { inferShapes } from '../src/model/infer-shapes';
import type { InferredModel } from '../src/model/inferred';
import { asciiChart } from '../src/planner/ascii-chart';
import { planModel, type ModelPlan } from '../src/planner/plan';
import { isStrategyName, STRATEGY_NAMES } from '../src/planner/strategies/registry';
import type { TargetProfile } from '../src/planner/target';
import { InputError } from '../src/shared/errors';
import { formatBytes, formatCount } from '../src/shared/format';
import type { ParsedArgs } from './args';
import { readInputFile, type Output } from './io';
import { EXPORT_OPTIONS, wantsExports, writeExports } from './plan-exports';
import { forEachFile } from './run-files';
import { resolveTarget } from './targets';

/** Buffers listed under "live at peak" in the text output. */
const TOP_BUFFERS = 10;

/** The strategy named by --strategy, checked; undefined when absent. */
export function strategyOption(args: ParsedArgs): string | undefined {
  const name = args.options.get('--strategy');
  if (name !== undefined && !isStrategyName(name)) {
    throw new InputError('bad-argument', `unknown strategy "${name}" (strategies: ${STRATEGY_NAMES.join(', ')})`);
  }
  return name;
}

/** Decodes, infers and plans one model file. */
export function planFile(file: string, dims: Readonly<Record<string, number>>, target: TargetProfile, strategy?: string): ModelPlan {
  return planModelFile(file, dims, target, strategy).plan;
}

/** Decodes, infers and plans one model file (its bytes when already read); the inferred model too. */
export function planModelFile(
  file: string,
  dims: Readonly<Record<string, number>>,
  target: TargetProfile,
  strategy?: string,
  bytes: Uint8Array = readInputFile(file),
): { readonly model: InferredModel; readonly plan: ModelPlan } {
  const model = inferShapes(decodeOnnx(bytes), { dims });
  return { model, plan: planModel(model, target, strategy === undefined ? {} : { strategy }) };
}

/** Runs `plan`; returns the exit code. */
export function runPlan(args: ParsedArgs, io: Output): number {
  const target = resolveTarget(args.options.get('--target'));
  const strategy = strategyOption(args);
  const ascii = args.flags.has('--ascii');
  const exports = wantsExports(args);
  if (exports && args.files.length > 1) {
    const given = EXPORT_OPTIONS.filter((o) => args.options.has(o));
    throw new InputError('bad-argument', `${given.join(', ')} ${given.length === 1 ? 'writes' : 'write'} the plan of one model; got ${args.files.length} files`);
  }
  return forEachFile(
    args,
    io,
    (file) => {
      const { model, plan } = planModelFile(file, args.dims, target, strategy);
      const written = exports ? { written: writeExports(args, { file, model, plan, target, strategy }) } : {};
      return ascii && args.flags.has('--json') ? { ...plan, ascii: asciiChart(plan), ...written } : { ...plan, ...written };
    },
    (file, plan, out) => {
      const written = (plan.written ?? []).map((path) => `  written       ${path}\n`).join('');
      out.out(planText(file, plan) + written + (ascii ? '\n' + asciiChart(plan) : ''));
    },
  );
}

/** DRAM traffic, and the fusion units with what each saves (M2, M5). */
function fusionLines(plan: ModelPlan): string[] {
  const { before, after } = plan.traffic;
  if (plan.fusionUnits.length === 0) return [`  DRAM traffic  ${formatBytes(before)}`];
  const saved = before === 0 ? 0 : ((before - after) / before) * 100;
  const kinds = (k: string) => plan.fusionUnits.filter((u) => u.kind === k).length;
  return [
    `  DRAM traffic  ${formatBytes(before)} without fusion -> ${formatBytes(after)} with it (${saved.toFixed(1)} % saved)`,
    `  fusion units  ${plan.fusionUnits.length}: ${kinds('tfu')} template (M2), ${kinds('dw-pw')} depthwise+pointwise (M5)`,
    ...plan.fusionUnits.slice(0, TOP_BUFFERS).map(
      (u) => `    ${u.name.padEnd(8)} ${String(u.nodes.length).padStart(3)} layers, on chip ${formatBytes(u.onChipBytes)}, saves ${formatBytes(u.trafficSaved)}`,
    ),
    ...(plan.fusionUnits.length > TOP_BUFFERS ? [`    ... and ${plan.fusionUnits.length - TOP_BUFFERS} more`] : []),
  ];
}

/** Compute-unit functions and boundary decisions (M3), when the target has several units. */
function unitLines(plan: ModelPlan): string[] {
  if (plan.functions.length <= 1 && plan.boundaries.length === 0) return [];
  const perUnit = new Map<string, number>();
  for (const f of plan.functions) perUnit.set(f.unit, (perUnit.get(f.unit) ?? 0) + 1);
  const reasons = new Map<string, number>();
  for (const b of plan.boundaries) if (!b.shared) reasons.set(b.reason, (reasons.get(b.reason) ?? 0) + 1);
  const shared = plan.boundaries.filter((b) => b.shared).length;
  const copies = [...reasons].map(([r, n]) => `${n} ${r}`).join(', ');
  return [
    `  functions     ${plan.functions.length}: ${[...perUnit].map(([u, n]) => `${n} on ${u}`).join(', ')}`,
    `  boundaries    ${plan.boundaries.length}: ${shared} shared${copies === '' ? '' : `, copied: ${copies}`}`,
  ];
}

/** The human-readable summary of a plan. */
export function planText(file: string, plan: ModelPlan): string {
  const bytes = (n: number) => `${formatBytes(n)} (${formatCount(n)} B)`;
  const lines = [
    `${file}: target ${plan.target}, strategy ${plan.strategy}, ${plan.steps.length} steps, ${plan.buffers.length} buffers`,
    `  peak          ${bytes(plan.peak)}`,
    `  lower bound   ${bytes(plan.lowerBound)}; gap ${(plan.gap * 100).toFixed(2)} %${plan.optimal ? ', optimal (peak = lower bound)' : ''}`,
  ];
  for (const r of plan.regions) {
    const limit = r.sizeLimit === undefined ? '' : `, limit ${formatBytes(r.sizeLimit)}${r.peak > r.sizeLimit ? ' EXCEEDED' : ''}`;
    lines.push(`  ${`region ${r.name}`.padEnd(13)} ${formatBytes(r.peak)} (bound ${formatBytes(r.lowerBound)}, ${r.fast ? 'fast' : 'slow'}${limit})`);
  }
  lines.push(`  weights       ${formatBytes(plan.weights.bytes)} in ${plan.weights.tensors} tensors (own region, not planned)`);
  const w = plan.waste;
  lines.push(`  waste         holes ${formatBytes(w.holes)}, alignment padding ${formatBytes(w.alignmentPadding)}, scratch growth ${formatBytes(w.scratchGrowth)}`);
  const o = plan.order;
  if (o.policy !== 'file') {
    const kept = o.keptFileOrder ? ' (no better than the file order, which is kept)' : '';
    lines.push(`  order         ${o.policy}: most bytes live ${formatBytes(o.maxLiveBefore)} in file order -> ${formatBytes(o.maxLiveAfter)}${kept}`);
  }
  if (plan.scratch !== undefined) {
    const s = plan.scratch;
    lines.push(`  scratch       ${s.buffers} buffers, ${s.placement}; peak in free areas (M4) ${formatBytes(s.freeAreasPeak)}, with activations ${formatBytes(s.withActivationsPeak)}`);
  }
  lines.push(...fusionLines(plan), ...unitLines(plan));
  if (plan.peakStep !== undefined) {
    const step = plan.steps[plan.peakStep];
    lines.push(`  peak step     ${plan.peakStep}${step ? ` (${step.opType} '${step.node}')` : ''} in region ${plan.peakRegion}; live there:`);
    for (const b of plan.liveAtPeak.slice(0, TOP_BUFFERS)) {
      lines.push(`    ${formatBytes(b.size).padStart(11)}  ${b.kind.padEnd(10)}  ${b.name}`);
    }
    if (plan.liveAtPeak.length > TOP_BUFFERS) lines.push(`    ... and ${plan.liveAtPeak.length - TOP_BUFFERS} more`);
  }
  if (plan.diagnostics.length > 0) {
    lines.push(`  diagnostics (${plan.diagnostics.length}):`);
    for (const d of plan.diagnostics) lines.push(`    [${d.code}] ${d.message}`);
  }
  return lines.join('\n') + '\n';
}
