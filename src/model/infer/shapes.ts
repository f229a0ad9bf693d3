// IR model -> inferred model: every value's dtype, concrete shape and bytes, with
// partial constant propagation. Public entry point of inference. No DOM.
//
// Shape inference is written by hand: no maintained JavaScript library infers
// ONNX shapes, and the planner needs concrete sizes under the user's dim
// bindings plus the constant/activation split, which generic inference lacks.
//
// When defaults (not the user) chose some dims and the result has an empty
// tensor or a shape a rule found impossible, inference runs again with raised
// defaults (DimLadder) and keeps the attempt with the fewest such tensors; the
// dims' rules say so. Dims no name or axis explains (the 'other' rule, such as
// an audio input's sample count) are searched first: the smallest value that
// sizes every tensor (a Conv's kernel, an STFT's frame), by doubling and then
// bisection, in at most OTHER_ATTEMPTS inferences.

import type { IrGraph, IrModel, IrValueInfo } from '../ir';
import type { InferredGraph, InferredModel, ModelDiagnostic } from '../inferred';
import { bindDims, DEFAULT_DENSE_SPATIAL, type DimHints, type DimLadder, type DimTable } from './dims';
import { shortName } from '../../shared/short-name';
import { inferGraph } from './graph';
import { kvPastAxes } from './kv-axes';
import { nodeSubgraphs } from '../check-graph';
import { bodyBudget } from './budget';
import { appliedBindings, dimSourceText, unusedBindings } from './bindings';
import { unappliedTfliteShapes, withFileShapes } from './tflite-shapes';

/** Options of inferShapes. */
export interface InferOptions {
  /** Values for symbolic dims, by name (also "<input>:<axis>" for anonymous dims). */
  readonly dims?: Readonly<Record<string, number>>;
  /** Shapes for tensors, by name, that replace what inference finds (graph inputs included); they propagate. */
  readonly shapes?: Readonly<Record<string, readonly number[]>>;
  /** Values of graph inputs, by name (flattened, row-major), e.g. to resolve an If on a sample rate. */
  readonly inputValues?: Readonly<Record<string, readonly number[]>>;
  /** The option that gave a dim's value, by the key in `dims`, where diagnostics should not name it '--dim' (diff's side b: '--b-dim'). */
  readonly dimOptions?: Readonly<Record<string, string>>;
  /** The runtime allocates the shapes the file states (a .tflite planned for TensorFlow Lite Micro): every tensor keeps its file's shape and size, dims given or not. */
  readonly fileShapes?: boolean;
}

/** Raised defaults tried, in order, after the first choice. */
const LADDER: readonly (DimLadder & { readonly spatial: number })[] = [
  { spatial: DEFAULT_DENSE_SPATIAL, sequence: 512, other: 32 },
  { spatial: 1280, sequence: 2048, other: 256 },
];

/** Largest value the search for an 'other' dim tries. */
const MAX_OTHER = 1 << 20;
/** Inferences the search for an 'other' dim may run (doubling to MAX_OTHER, then bisecting). */
const OTHER_ATTEMPTS = 42;

/** Infers every value's shape and size. Never throws for unknown ops: they become diagnostics. */
export function inferShapes(model: IrModel, options: InferOptions = {}): InferredModel {
  const hints = dimHints(model);
  let best = inferOnce(model, options, hints, {});
  if (!best.raisable || best.problems.count === 0) return best.model;
  if (best.defaultOther) {
    const searched = smallestOther(model, options, hints, best);
    if (searched !== undefined && searched.problems.count < best.problems.count) best = searched;
    if (best.problems.count === 0) return best.model;
  }
  for (const step of LADDER) {
    const ladder = { ...step, spatial: Math.max(step.spatial, 2 * (best.spatial ?? 0)), why: best.problems.first };
    const next = inferOnce(model, options, hints, ladder);
    if (next.problems.count < best.problems.count) best = next;
    if (best.problems.count === 0) break;
  }
  return best.model;
}

/**
 * The attempt with the smallest value of the 'other' dims that leaves no tensor
 * without a size or empty: doubling from 2 until one does, then bisection
 * below it (the value is checked, so a graph that accepts only some values
 * keeps the one found by doubling). Undefined when no value up to MAX_OTHER
 * does; the rule names the value and what went wrong just below it.
 */
function smallestOther(model: IrModel, options: InferOptions, hints: DimHints, first: Attempt): Attempt | undefined {
  let attempts = 0;
  const at = (other: number, otherRule?: string): Attempt => {
    attempts++;
    return inferOnce(model, options, hints, { other, ...(otherRule !== undefined && { otherRule }) });
  };
  let low = 1; // known to leave problems (the first choice)
  let lowAttempt = first;
  let high: number | undefined;
  for (let v = 2; v <= MAX_OTHER && attempts < OTHER_ATTEMPTS; v *= 2) {
    const attempt = at(v);
    if (attempt.problems.count === 0) {
      high = v;
      break;
    }
    [low, lowAttempt] = [v, attempt];
  }
  if (high === undefined) return undefined;
  while (high - low > 1 && attempts < OTHER_ATTEMPTS) {
    const mid = Math.floor((low + high) / 2);
    const attempt = at(mid);
    if (attempt.problems.count === 0) high = mid;
    else [low, lowAttempt] = [mid, attempt];
  }
  // what went wrong just below: the last failing attempt when the search closed in on it, else that value tried once more
  const below = low === high - 1 ? lowAttempt : at(high - 1);
  const why = (below.problems.first ?? 'a tensor had no size').replace(/^the first choice /, '');
  const found = at(high, `no rule applies: ${high}, the smallest value that sizes every tensor (at ${high - 1} it ${why})`);
  return found.problems.count === 0 ? found : undefined;
}

interface Attempt {
  readonly model: InferredModel;
  readonly raisable: boolean;
  readonly defaultOther: boolean;
  readonly spatial: number | undefined;
  readonly problems: { readonly count: number; readonly first: string | undefined };
}

function inferOnce(model: IrModel, options: InferOptions, hints: DimHints, ladder: DimLadder): Attempt {
  const diagnostics: ModelDiagnostic[] = [...model.diagnostics];
  const seen = new Set<string>();
  const report = (d: ModelDiagnostic): void => {
    const key = `${d.code}\u0000${d.node ?? ''}\u0000${d.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    diagnostics.push(d);
  };
  const dims = bindDims(model.graph.inputs, options.dims ?? {}, diagnostics, hints, ladder, options.dimOptions);
  const opsets = new Map(model.opsets.map((o) => [o.domain, o.version]));
  const given = ownEntries(options.shapes);
  // A .tflite model is planned with the shapes its file states: no rule could size what a changed shape feeds
  // (tflite-shapes.ts), so a shape given is not applied and says so, rather than leaving everything below it unknown.
  const tflite = model.format === 'tflite';
  const shapes = tflite ? new Map<string, readonly number[]>() : given;
  const inputValues = ownEntries(options.inputValues);
  const budget = bodyBudget(model.graph);
  const { graph } = inferGraph(model.graph, { opsets, dims, report, shapes, inputValues, budget }, undefined);
  unusedBindings(model.graph, given, inputValues).forEach(report);
  symbolicOverrides(model.graph.inputs, shapes, dims).forEach(report);
  if (tflite) unappliedTfliteShapes(graph, given, model.tflite).forEach(report);
  const applied = appliedBindings(model.graph, shapes, inputValues);
  const whole: InferredModel = {
    ...graph,
    info: {
      producerName: model.producerName,
      producerVersion: model.producerVersion,
      irVersion: model.irVersion,
      opsets: model.opsets,
      fileBytes: model.fileBytes,
    },
    dims: dims.bindings.map((b) => (b.source !== 'derived' && !sizesSomething(dims, b.name) ? { ...b, sizesNothing: true as const } : b)),
    shapes: Object.fromEntries(applied.shapes),
    inputValues: Object.fromEntries(applied.inputValues),
    diagnostics,
    ...(model.format !== undefined && { format: model.format }),
    ...(model.tflite !== undefined && { tflite: model.tflite }),
    ...(model.graph.persistent !== undefined && { persistent: model.graph.persistent }),
  };
  // a dim given stays in `dims`, for the plan to say it is not applied; no shape or size shown rests on it
  const inferred = options.fileShapes === true ? withFileShapes(whole) : whole;
  const spatial = dims.bindings.find((b) => b.source === 'default' && b.rule.startsWith('image'))?.value;
  const zeroDimBound = dims.bindings.some((b) => b.value === 0);
  // Raised dims do not make bodies cheaper: an attempt that ran out of body budget is not repeated.
  const raisable = dims.raisable && !budget.exhausted;
  return { model: inferred, raisable, defaultOther: dims.defaultOther, spatial, problems: degenerate(inferred, diagnostics, zeroDimBound) };
}

/**
 * Tensors the dims left without a size: rule failures, activations of unknown
 * size, and (unless some dim is 0 on purpose, like an empty past) empty
 * activations. `first` says what went wrong first.
 */
/** Whether dim `name` sizes a tensor: a declaration that sized one names it, or it feeds a default total that does. */
function sizesSomething(dims: DimTable, name: string): boolean {
  const total = dims.feeding.get(name);
  return dims.sizing.has(name) || (total !== undefined && dims.sizing.has(total));
}

/**
 * A shape given for a graph input that sets one of its symbolic axes to
 * another value than the dim it names has where that dim still sizes other
 * tensors: the plan then holds two values of one dim, which is said, once
 * per input. A dim only the given shapes named sizes nothing and is no
 * contradiction (a bound one is flagged as sizing nothing instead).
 */
function symbolicOverrides(inputs: readonly IrValueInfo[], shapes: ReadonlyMap<string, readonly number[]>, dims: DimTable): ModelDiagnostic[] {
  const out: ModelDiagnostic[] = [];
  for (const input of inputs) {
    const shape = shapes.get(input.name);
    const declared = input.shape;
    if (shape === undefined || declared === undefined || declared.length !== shape.length) continue;
    const clashes = declared.flatMap((d, axis) => {
      const name = d === undefined || d === '' || (typeof d === 'number' && d < 0) ? `${input.name}:${axis}` : typeof d === 'string' ? d : undefined;
      const bound = name === undefined ? undefined : dims.bindings.find((b) => b.name === name);
      if (bound === undefined || bound.value === shape[axis] || !sizesSomething(dims, bound.name)) return [];
      return [`axis ${axis} is ${shortName(bound.name)}, ${bound.value.toLocaleString('en-US')} (${dimSourceText(bound)}) elsewhere in the plan`];
    });
    if (clashes.length === 0) continue;
    out.push({
      code: 'shape-override',
      message: `'${shortName(input.name)}' ${clashes.join('; ')}; the given shape ${shape.join('×')} is used for '${shortName(input.name)}' alone`,
    });
  }
  return out;
}

function degenerate(model: InferredGraph, diagnostics: readonly ModelDiagnostic[], zeroDimBound: boolean): Attempt['problems'] {
  const failures = diagnostics.filter((d) => d.code === 'unknown-shape');
  let count = failures.length;
  let first = failures[0] === undefined ? undefined : `the first choice gave ${failures[0].message}`;
  for (const v of model.values) {
    if (v.kind !== 'activation' && v.kind !== 'output') continue;
    if (v.bytes === undefined) {
      count++;
      first ??= `the first choice left '${v.name}' without a size (${v.unknownReason ?? 'unknown'})`;
    } else if (!zeroDimBound && v.shape?.includes(0) === true) {
      count++;
      first ??= `the first choice made '${v.name}' empty (${v.shape.join('×')})`;
    }
  }
  return { count, first };
}

/** What the model says about the sizes it expects, beyond its inputs' declarations. */
function dimHints(model: IrModel): DimHints {
  const imageSize = metadataImageSize(model.metadata);
  return { ...(imageSize !== undefined && { imageSize }), densePrediction: hasDenseOps(model.graph), kvPastAxes: kvPastAxes(model.graph) };
}

const DENSE_OPS = new Set(['Resize', 'Upsample', 'NonMaxSuppression', 'ConvTranspose', 'DepthToSpace']);

function hasDenseOps(graph: IrGraph): boolean {
  return graph.nodes.some((n) => DENSE_OPS.has(n.opType) || nodeSubgraphs(n).some(hasDenseOps));
}

/** Metadata keys exporters use for the input image size (Ultralytics writes `imgsz: [640, 640]`). */
const IMAGE_SIZE_KEYS = ['imgsz', 'image_size', 'img_size', 'input_size', 'image_shape', 'input_shape'];

function metadataImageSize(metadata: IrModel['metadata']): DimHints['imageSize'] {
  if (metadata === undefined) return undefined;
  for (const key of IMAGE_SIZE_KEYS) {
    const text = metadata[key];
    if (text === undefined) continue;
    const value = (text.match(/\d+/g) ?? []).map(Number).find((n) => n >= 8 && n <= 16384);
    if (value !== undefined) return { value, key };
  }
  return undefined;
}

/** Own entries of a user-given record (never inherited keys such as '__proto__'). */
function ownEntries<T>(record: Readonly<Record<string, T>> | undefined): Map<string, T> {
  return new Map(record === undefined ? [] : Object.keys(record).map((k) => [k, record[k] as T]));
}
