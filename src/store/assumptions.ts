// What the plan on screen rests on that the file alone does not fix, as the
// lines of the assumptions banner and of summary().warnings: default dims (by
// the input axis they size), tensors of unknown size, guessed If/Loop
// branches; each line names the control that fixes it. Also how a dim is labelled.

import type { DimBinding, InferredGraph, InferredModel, InferredNode, InferredValue } from '../model/inferred';
import type { BranchChoice, DimAssumption, ModelPlan, PlanAssumptions, UnknownAssumption } from '../planner/plan';
import { TFLITE_FIXED_SHAPES } from '../model/infer/tflite-shapes';
import { MISSING_OPSET } from '../model/onnx/decode-domains';
import { mismatchedTotals, mismatchSum, type TotalMismatch } from '../model/infer/dims';
import { TFLM_IO_IN_ARENA } from '../planner/tflm/arena-io';
import { dimAssumptions, inputsFeeding } from '../planner/assembly/assumptions';
import { TFLM_FIXED_SHAPES } from '../planner/tflm/plan-notes';
import { WORKSPACE_NOT_COUNTED } from '../planner/scratch/kernel-workspace';
import { shortName, titleText } from '../shared/short-name';
import { formatBytes, MAX_EXACT_POWER } from '../shared/format';
import { memoLast } from './memo';
import type { AppState } from './state';

/** The control that fixes what a banner line says. */
export type AssumptionFix =
  | { readonly kind: 'dims'; readonly dims: readonly DimAssumption[] } // the default dims to set
  | { readonly kind: 'shape'; readonly tensors: readonly string[] } // tensors of unknown size, the first to give a shape
  | { readonly kind: 'input'; readonly inputs: readonly string[]; readonly node: string } // graph inputs that decide the branch
  | { readonly kind: 'target' } // only another target changes it (nothing on the banner does)
  | { readonly kind: 'none' }; // nothing on the page changes it (the file states it)

/** One line of the assumptions banner. */
export interface AssumptionLine {
  readonly key: string;
  readonly text: string; // the sentence, also a summary() warning
  readonly lead: string; // the sentence without its closing "— set …", for a banner that shows the fix as a button
  readonly detail: string | undefined; // why, in the planner's words, for a tooltip
  readonly action: string | undefined; // the fix's button text ("set them"); undefined when nothing on the page fixes it
  readonly fix: AssumptionFix;
}

/** How many op types a line names before "…". */
const OPS_NAMED = 3;

/** How a dim is shown: the input axes it sizes, then its symbolic name when it has one of its own. */
export function dimLabel(dim: Pick<DimBinding, 'name' | 'axes'>): string {
  const axes = dim.axes ?? [];
  if (axes.length === 0) return dim.name;
  const own = axes.includes(dim.name) ? [] : [dim.name];
  return [axes.join(', '), ...own].join(' · ');
}

/** A dim's label as shown beside its field: cut in the middle past 200 characters (a long name keeps its axes readable). */
export function shownDimLabel(dim: Pick<DimBinding, 'name' | 'axes'>): string {
  return shortName(dimLabel(dim), 200, 'middle');
}

/** The short form of a dim in a sentence: the name --dim and the dims form take ("batch_size=1"; an unnamed dim's is the input axis it sizes, "x:2=224") = value. */
function dimTerm(dim: DimAssumption): string {
  return `${shortName(dim.name)}=${dim.value}`;
}

/** The plan's assumptions; derived from the inferred model for a plan that does not carry them. */
export function planAssumptions(plan: ModelPlan | undefined, model: InferredModel): PlanAssumptions {
  if (plan?.assumptions !== undefined) return plan.assumptions;
  const dims = dimAssumptions(model.dims);
  const unknown = model.values
    .filter((v) => v.bytes === undefined && (v.kind === 'activation' || v.kind === 'output' || v.kind === 'input'))
    .map((v) => ({ tensor: v.name, op: v.producer === undefined ? '' : (model.nodes[v.producer]?.opType ?? ''), reason: v.unknownReason ?? 'shape unknown', ...(v.dtypeName === 'string' && { string: true as const }) }));
  const branches = allNodes(model).flatMap((n) => (n.branch === undefined ? [] : [n.branch]));
  return { dims, unknown, branches, shapes: model.shapes ?? {}, inputValues: model.inputValues ?? {} };
}

/** The banner's lines for a plan (or the model alone when it has no plan). */
export function assumptionLines(plan: ModelPlan | undefined, model: InferredModel): AssumptionLine[] {
  const a = planAssumptions(plan, model);
  const lines: AssumptionLine[] = model.diagnostics.filter((d) => d.code === MISSING_OPSET).map((d, i) => fileStatesLine(`missing-opset:${i}`, d.message));
  lines.push(...mismatchedTotals(model.dims).map((m) => mismatchLine(m, a.dims)));
  const defaults = a.dims.filter((d) => !d.bound);
  if (defaults.length > 0) lines.push(dimsLine(defaults));
  const tensors = a.unknown.filter((u) => u.scratch !== true);
  const scratch = a.unknown.filter((u) => u.scratch === true);
  // a size known to pass 2^53 − 1 bytes is no unknown: its tensors get their own line, over any size limit
  // a string's size is known only at run time: no shape gives it, so it gets its own line with nothing to give
  const unknownSized = tensors.filter((u) => u.pastLimit !== true && u.string !== true);
  const strings = tensors.filter((u) => u.string === true);
  const tooLarge = tensors.filter((u) => u.pastLimit === true);
  if (unknownSized.length > 0) lines.push(unknownLine(unknownSized, false));
  if (strings.length > 0) lines.push(unknownStringLine(strings));
  if (tooLarge.length > 0) lines.push(unknownLine(tooLarge, true));
  if (scratch.length > 0) lines.push(unknownScratchLine(scratch));
  for (const branch of a.branches) lines.push(branchLine(branch, model));
  if (plan?.diagnostics.some((d) => d.code === TFLM_FIXED_SHAPES) === true) lines.push(fixedShapesLine(model));
  const unapplied = model.diagnostics.find((d) => d.code === TFLITE_FIXED_SHAPES);
  if (unapplied !== undefined) lines.push(fileStatesLine('tflite-shapes', unapplied.message));
  if (plan?.diagnostics.some((d) => d.code === TFLM_IO_IN_ARENA) === true) lines.push(arenaIoLine());
  const notTflite = plan?.diagnostics.find((d) => d.code === RUNTIME_NEEDS_TFLITE);
  if (notTflite !== undefined) lines.push(runtimeNeedsTfliteLine(notTflite.message));
  const refusals = (plan?.diagnostics ?? []).filter((d) => d.code === TFLM_UNSUPPORTED).map((d) => d.message);
  if (refusals.length > 0) lines.push(refusedLine(refusals));
  const kernels = plan?.assumptions.kernels ?? [];
  if (kernels.length > 0) lines.push(unknownKernelsLine(kernels, refusals.length > 0));
  const workspace = plan?.assumptions.workspace ?? [];
  if (workspace.length > 0) lines.push(workspaceLine(workspace, (plan?.diagnostics ?? []).filter((d) => d.code === WORKSPACE_NOT_COUNTED)));
  return lines;
}

/**
 * Kernel workspace of fused attention ops no scratch rule of the target plans: left out of every figure, ONNX
 * Runtime's CPU estimate of the largest said in one short line (the heap keeps its room), the plan's diagnostics, one
 * per op type with the rule that would plan it, behind its "?" (planner/scratch/kernel-workspace.ts).
 */
function workspaceLine(workspace: NonNullable<ModelPlan['assumptions']['workspace']>, notes: readonly { readonly message: string }[]): AssumptionLine {
  const largest = workspace[0]!;
  const ops = [...new Set(workspace.map((w) => shortName(w.opType.replace(/^com\.microsoft::/, ''))))].join(', ');
  const count = `${workspace.length} ${ops} operator${workspace.length === 1 ? '' : 's'}`;
  const size = `${largest.lowerEstimate ? 'at least' : 'about'} ${formatBytes(largest.bytes)} for ${workspace.length === 1 ? count : `the largest of ${count}`}`;
  const unknown = workspace.filter((w) => w.bytes === undefined).length;
  const more = largest.bytes !== undefined && unknown > 0 ? `; ${unknown} more of unknown size` : '';
  const text = `Kernel workspace not counted: ${largest.bytes === undefined ? `${count}, of unknown size` : size}${more} (ONNX Runtime's CPU estimate)`;
  const detail = titleText(notes.map((n) => n.message.charAt(0).toUpperCase() + n.message.slice(1)).join('\n'));
  return { key: 'kernel-workspace', text, lead: text, detail, action: undefined, fix: { kind: 'target' } };
}

/** The diagnostic of a runtime target asked of a model the runtime does not read (planner/plan.ts). */
const RUNTIME_NEEDS_TFLITE = 'runtime-needs-tflite';

/** A model other than .tflite on a target that reproduces TensorFlow Lite Micro's plan: its plan is not the runtime's, though the strategy is named for it. */
function runtimeNeedsTfliteLine(message: string): AssumptionLine {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return { key: RUNTIME_NEEDS_TFLITE, text, lead: text, detail: 'TensorFlow Lite Micro reads .tflite files only: no arena to declare is given, and the plan is not the one the runtime would make', action: undefined, fix: { kind: 'target' } };
}

/** The diagnostic of a model TensorFlow Lite Micro refuses to allocate (planner/tflm/tflm-problem.ts). */
const TFLM_UNSUPPORTED = 'tflm-unsupported';

/** A model TensorFlow Lite Micro refuses: no arena works, whatever the figures beside it say it would need were it accepted. */
function refusedLine(refusals: readonly string[]): AssumptionLine {
  const text = 'TensorFlow Lite Micro refuses this model: no tensor arena works, AllocateTensors() fails whatever its size; the arena figures are what it would need were the model accepted';
  return { key: 'tflm-refused', text, lead: text, detail: titleText(refusals.join('\n')), action: undefined, fix: { kind: 'target' } };
}

/** Kernels whose scratch requests are not known, on TensorFlow Lite Micro: none assumed, so the arena is a lower estimate (`refused`: one the model, refused, would need were it accepted). */
function unknownKernelsLine(kernels: NonNullable<ModelPlan['assumptions']['kernels']>, refused = false): AssumptionLine {
  const first = kernels[0]!;
  const which = kernels.length === 1 ? `custom operator ${shortName(first.op)} ('${shortName(first.node)}')` : `${kernels.length} custom operators, first ${shortName(first.op)}`;
  const arena = refused ? 'The arena the model would need were it accepted is a lower estimate' : 'The arena to declare is a lower estimate';
  const lead = `${arena}: ${which} may ask for scratch heapscope does not know, and none is assumed`;
  return {
    key: 'tflm-kernels',
    text: lead,
    lead,
    detail: titleText(kernels.slice(0, 5).map((k) => `${shortName(k.node)} (${shortName(k.op)}): ${k.reason}`).join('\n')),
    action: undefined,
    fix: { kind: 'none' },
  };
}

/**
 * A diagnostic of the file that nothing on the page changes, as a line: shapes
 * given for a .tflite, which keeps its file's (model/infer/tflite-shapes.ts);
 * nodes of a domain the model does not import, as a file cut short has
 * (model/onnx/decode-domains.ts).
 */
function fileStatesLine(key: string, message: string): AssumptionLine {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return { key, text, lead: text, detail: undefined, action: undefined, fix: { kind: 'none' } };
}

/** Graph I/O asked of the application on TensorFlow Lite Micro, which allocates it in its arena itself. */
function arenaIoLine(): AssumptionLine {
  const text = "TFLite Micro allocates the model's inputs and outputs in its arena: Graph I/O 'application' is not applied to this plan";
  return { key: 'tflm-io', text, lead: text, detail: 'TensorFlow Lite Micro places graph inputs and outputs in its tensor arena; plan on another target to see the application own them', action: undefined, fix: { kind: 'target' } };
}

/** Dims given for a .tflite planned as TensorFlow Lite Micro plans it: the plan is of the file's shapes, not theirs. */
function fixedShapesLine(model: InferredModel): AssumptionLine {
  const given = model.dims.filter((d) => d.source === 'user');
  const one = given.length === 1;
  const terms = given.map((d) => `${shortName(d.name)}=${d.value}`).join(', ');
  const text = `TFLite Micro plans the shapes the file states: ${terms} ${one ? 'is' : 'are'} not applied to this plan, and the graph and tensors show the file's shapes`;
  return { key: 'tflm-shapes', text, lead: text, detail: 'TensorFlow Lite Micro cannot resize a tensor; plan on another target to see what the dim changes', action: undefined, fix: { kind: 'target' } };
}

/**
 * A total length given otherwise than the sum the graph requires of it: the
 * plan is of the total as given, beside sequence and past lengths it does not
 * add up to. Its fixer offers the three dims.
 */
function mismatchLine(m: TotalMismatch, dims: readonly DimAssumption[]): AssumptionLine {
  const name = shortName(m.total.name);
  const axes = m.total.axes.length === 0 ? '' : ` (${m.total.axes.map((a) => shortName(a)).join(', ')})`;
  const lead = `The given ${name}=${m.total.value}${axes} disagrees with ${mismatchSum(m)}, which the graph requires: the plan's sizes take ${name}=${m.total.value} as given, so shapes that combine them may not agree`;
  const fixed = [...m.parts, m.total].flatMap((b) => dims.filter((d) => d.name === b.name));
  return {
    key: `dim-mismatch:${m.total.name}`,
    text: `${lead} — set them`,
    lead,
    detail: `${m.total.name} sizes ${m.total.axes.join(', ') || 'no graph input'}; the graph adds ${m.parts.map((p) => p.name).join(' and ')} to make it`,
    action: 'Set them',
    fix: { kind: 'dims', dims: fixed },
  };
}

function dimsLine(defaults: readonly DimAssumption[]): AssumptionLine {
  // Dims chosen by the same rule are listed together, the rule once after them.
  const groups = new Map<string, DimAssumption[]>();
  for (const d of defaults) groups.set(d.rule, [...(groups.get(d.rule) ?? []), d]);
  const terms = [...groups].map(([rule, dims]) => `${dims.map(dimTerm).join(', ')}${rule ? ` (${rule})` : ''}`);
  const many = defaults.length > 1;
  const lead = `Plan assumes default${many ? 's' : ''} ${terms.join('; ')}`;
  const detail = defaults.map((d) => `${d.name} sizes ${d.axes.join(', ') || 'no graph input'}`).join('; ');
  return { key: 'dims', text: `${lead} — set ${many ? 'them' : 'it'}`, lead, detail, action: many ? 'Set them' : 'Set it', fix: { kind: 'dims', dims: defaults } };
}

/** Tensors of unknown size, or (`past`) tensors known to need more than 2^53 − 1 bytes: over any size limit (the heap header's verdict says so where one is set). */
function unknownLine(unknown: readonly UnknownAssumption[], past: boolean): AssumptionLine {
  const ops = [...new Set(unknown.map((u) => shortName(u.op || 'graph input')))];
  const named = ops.slice(0, OPS_NAMED).join(', ') + (ops.length > OPS_NAMED ? ', …' : '');
  const what = past ? `needing more than ${MAX_EXACT_POWER} bytes` : 'of unknown size';
  const count = unknown.length === 1 ? `1 tensor ${what} ('${shortName(unknown[0]!.tensor)}', ${named})` : `${unknown.length} tensors ${what} (${named})`;
  const lead = `${count}: ${past ? 'over any size limit, and ' : ''}the peak is a lower estimate`;
  const trips = past ? undefined : tripCountFix(unknown);
  if (trips !== undefined) {
    const set = trips.inputs.map((i) => shortName(i)).join(', ');
    const detail = titleText(`${unknown.slice(0, 5).map((u) => `${shortName(u.tensor)}: ${u.reason}`).join('\n')}\nthe value of ${set} gives the trip count of Loop '${shortName(trips.node)}'`);
    return { key: 'unknown', text: `${lead} — set ${set}`, lead, detail, action: `Set ${set}`, fix: { kind: 'input', ...trips } };
  }
  return {
    key: past ? 'too-large' : 'unknown',
    text: `${lead} — give a shape`,
    lead,
    detail: titleText(unknown.slice(0, 5).map((u) => `${shortName(u.tensor)}: ${u.reason}`).join('\n')),
    action: 'Give a shape',
    fix: { kind: 'shape', tensors: unknown.map((u) => u.tensor) },
  };
}

/** String tensors: their bytes depend on their contents, known only at run time, so no field of the page sizes them; the figures leave them out. */
function unknownStringLine(strings: readonly UnknownAssumption[]): AssumptionLine {
  const count = strings.length === 1 ? `1 string tensor ('${shortName(strings[0]!.tensor)}')` : `${strings.length} string tensors`;
  const lead = `${count} of unknown size: a string's size is known only at run time, so its bytes are not counted and the peak is a lower estimate`;
  return { key: 'unknown-string', text: lead, lead, detail: titleText(strings.slice(0, 5).map((u) => `${shortName(u.tensor)}: ${u.reason}`).join('\n')), action: undefined, fix: { kind: 'none' } };
}

/** The graph inputs whose values size every tensor of `unknown` (each the output of a Loop whose trip count they give), and one such Loop; undefined when a tensor rests on something else. */
function tripCountFix(unknown: readonly UnknownAssumption[]): { readonly inputs: readonly string[]; readonly node: string } | undefined {
  const first = unknown[0]?.tripCount;
  if (first === undefined || unknown.some((u) => u.tripCount === undefined)) return undefined;
  return { inputs: [...new Set(unknown.flatMap((u) => u.tripCount!.inputs))], node: first.node };
}

/** Scratch buffers whose target rule gives no size: no shape fixes them, the target's rule does. */
function unknownScratchLine(scratch: readonly UnknownAssumption[]): AssumptionLine {
  const count = scratch.length === 1 ? `1 scratch buffer of unknown size ('${shortName(scratch[0]!.tensor)}')` : `${scratch.length} scratch buffers of unknown size`;
  const lead = `${count}: the peak is a lower estimate`;
  return {
    key: 'unknown-scratch',
    text: `${lead} — the target's scratch rule gives no size`,
    lead,
    detail: titleText(scratch.slice(0, 5).map((u) => `${shortName(u.tensor)}: ${u.reason}`).join('\n')),
    action: undefined,
    fix: { kind: 'target' },
  };
}

/**
 * What a Loop line says: a trip count assumed, or why none is known
 * (shape-rules/control.ts) and what its scan outputs' sizes then rest on:
 * the shapes the file declares for them, where it declares them (the ONNX
 * Loop test declares res_scan 5×1), else nothing.
 */
function loopChoice(taken: string, node: InferredNode | undefined, model: InferredModel): string {
  if (/^\d+$/.test(taken)) return `${taken} iterations assumed`;
  const scans = node === undefined ? [] : node.outputs.slice(Math.max(0, node.inputs.length - 2)).filter((name) => name !== '');
  if (scans.length === 0) return carriedChoice(taken, node, model);
  const values = scans.map((name) => findValue(model, name));
  const declared = values.filter((v): v is InferredValue & { shape: readonly number[] } => v?.bytes !== undefined && v.shape !== undefined);
  if (declared.length === 0) return `${taken}, so its scan outputs have unknown size`;
  const sizes = declared.map((v) => `${shortName(v.name)} ${v.shape.length === 0 ? 'scalar' : v.shape.join('×')}`).join(', ');
  const unknown = values.length - declared.length;
  return `${taken}, so its scan outputs are sized as the file declares them (${sizes})${unknown > 0 ? `, ${unknown} of unknown size` : ''}`;
}

/** A Loop without scan outputs whose trip count is unknown: its loop-carried values of unknown size (a sequence it grows) rest on it. */
function carriedChoice(taken: string, node: InferredNode | undefined, model: InferredModel): string {
  const carried = node === undefined ? [] : node.outputs.slice(0, Math.max(0, node.inputs.length - 2)).filter((name) => name !== '');
  const unsized = carried.filter((name) => findValue(model, name)?.bytes === undefined).map((name) => shortName(name));
  if (unsized.length === 0) return `${taken}, so its body's sizes are not known`;
  const one = unsized.length === 1;
  return `${taken}, so loop-carried ${unsized.join(', ')}, which may change with each iteration, ${one ? 'has' : 'have'} unknown size`;
}

function branchLine(branch: BranchChoice, model: InferredModel): AssumptionLine {
  const node = findNode(model, branch.node);
  const op = shortName(node?.opType ?? 'If');
  const inputs = node === undefined ? [] : conditionInputs(model, node);
  const choice = op === 'Loop' ? loopChoice(branch.taken, node, model) : branch.taken === 'both' ? 'both branches assumed' : `${branch.taken} branch assumed`;
  const set = inputs.map((i) => shortName(i)).join(', ');
  const fixText = inputs.length === 0 ? '' : ` — set ${set}`;
  const lead = `${op} '${shortName(branch.node)}': ${choice}`;
  return {
    key: `branch:${branch.node}`,
    text: `${lead}${fixText}`,
    lead,
    detail: branch.reason ? titleText(branch.reason) : undefined,
    action: inputs.length === 0 ? undefined : `Set ${set}`,
    fix: { kind: 'input', inputs, node: branch.node },
  };
}

/** Every node of a graph and of its subgraphs, depth first. */
function allNodes(graph: InferredGraph): InferredNode[] {
  return graph.nodes.flatMap((n) => [n, ...n.subgraphs.flatMap(allNodes)]);
}

function findNode(model: InferredModel, name: string): InferredNode | undefined {
  return allNodes(model).find((n) => n.name === name);
}

/** A value of the graph or of any of its subgraphs, by name. */
function findValue(graph: InferredGraph, name: string): InferredValue | undefined {
  return graph.values.find((v) => v.name === name) ?? graph.nodes.flatMap((n) => n.subgraphs).reduce<InferredValue | undefined>((found, g) => found ?? findValue(g, name), undefined);
}

/** The graph inputs an If's condition (a Loop's trip count and condition) is computed from. */
export function conditionInputs(model: InferredModel, node: InferredNode): string[] {
  return inputsFeeding(model, node.opType === 'Loop' ? node.inputs.slice(0, 2) : node.inputs.slice(0, 1));
}

const linesOf = memoLast((plan: ModelPlan | undefined, model: InferredModel | undefined): readonly AssumptionLine[] =>
  model === undefined ? [] : assumptionLines(plan, model),
);

/** The assumption lines of the model and plan on screen (the same array while they are unchanged). */
export function selectAssumptionLines(state: AppState): readonly AssumptionLine[] {
  const model = state.model;
  return linesOf(model?.plan.status === 'planned' ? model.plan.plan : undefined, model?.inferred);
}
