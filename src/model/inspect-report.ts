// The inspect report: the facts of an inferred model as plain JSON-ready data,
// shared by the CLI (`inspect --json`) and the page. No DOM.

import { nullRecord } from '../shared/own';
import type { InferredModel, ModelDiagnostic, ValueKind } from './inferred';

/** One value in the report (DESIGN.md: name, dtype, shape, bytes or null). */
export interface ReportValue {
  readonly name: string;
  readonly kind: ValueKind;
  readonly dtype: string;
  readonly shape: readonly number[] | null;
  readonly bytes: number | null;
  readonly producer: string | null; // op type of the producing node
  readonly upperBound?: true;
  readonly state?: true; // a variable tensor the model keeps across runs (TFLite), read as an input: its kind is 'input', but it is no graph input
}

/** A value whose shape or size is unknown, with the reason. */
export interface UnknownShape {
  readonly name: string;
  readonly producer: string | null;
  readonly reason: string;
}

/** The `inspect --json` document. */
export interface InspectReport {
  readonly producer: string;
  readonly irVersion: number;
  readonly opsets: readonly { readonly domain: string; readonly version: number }[];
  readonly nodes: number;
  readonly opTypes: Readonly<Record<string, number>>;
  readonly dims: readonly { readonly name: string; readonly value: number; readonly source: string; readonly axes: readonly string[]; readonly rule: string; readonly givenAs?: string; readonly sizesNothing?: true }[]; // givenAs: the graph-input axis the user bound it by ("x:0"), where not its name
  readonly activations: number; // run-time tensors: graph inputs, intermediate results, outputs
  readonly activationBytes: number; // the total bytes of those whose size is known, the main graph's only: a lower bound when unknownActivations > 0
  readonly unknownActivations: number; // run-time tensors of unknown size, which activationBytes leaves out (0: it is the exact total)
  readonly bodyNodes: number; // nodes with subgraphs (If/Loop/Scan bodies), whose tensors `activationBytes` leaves out
  readonly constants: number;
  readonly values: readonly ReportValue[];
  readonly unknownShapes: readonly UnknownShape[];
  readonly diagnostics: readonly ModelDiagnostic[];
}

/** Kinds of value that live in the activation memory at run time. */
const RUNTIME_KINDS: ReadonlySet<ValueKind> = new Set(['input', 'output', 'activation']);

/**
 * Builds the inspect report of an inferred model; `kindOf` gives each value's kind when a plan has some otherwise than
 * the model (the page's TensorFlow Lite Micro plan runs a DEQUANTIZE of a constant: its output is an activation).
 */
export function inspectReport(model: InferredModel, kindOf: (value: InferredModel['values'][number]) => ValueKind = (v) => v.kind): InspectReport {
  const producerOf = (index: number | undefined): string | null =>
    index === undefined ? null : (model.nodes[index]?.opType ?? null);
  const persistent = new Set(model.persistent ?? []);
  const values: ReportValue[] = model.values.map((v) => ({
    name: v.name,
    kind: kindOf(v),
    dtype: v.dtypeName,
    shape: v.shape ?? null,
    bytes: v.bytes ?? null,
    producer: producerOf(v.producer),
    ...(v.upperBound ? { upperBound: true as const } : {}),
    ...(persistent.has(v.name) ? { state: true as const } : {}),
  }));
  const runtime = model.values.filter((v) => RUNTIME_KINDS.has(kindOf(v)));
  const unknownShapes = runtime
    .filter((v) => v.bytes === undefined)
    .map((v) => ({ name: v.name, producer: producerOf(v.producer), reason: v.unknownReason ?? 'shape unknown' }));
  const opTypes = nullRecord<number>();
  for (const node of model.nodes) {
    const key = node.domain ? `${node.domain}.${node.opType}` : node.opType;
    opTypes[key] = (opTypes[key] ?? 0) + 1;
  }
  const info = model.info;
  return {
    producer: [info.producerName, info.producerVersion].filter(Boolean).join(' '),
    irVersion: info.irVersion,
    opsets: info.opsets.map((o) => ({ domain: o.domain, version: o.version })),
    nodes: model.nodes.length,
    opTypes,
    dims: model.dims.map((d) => ({ name: d.name, value: d.value, source: d.source, axes: d.axes, rule: d.rule, ...(d.givenAs !== undefined && { givenAs: d.givenAs }), ...(d.sizesNothing === true && { sizesNothing: true as const }) })),
    activations: runtime.length,
    activationBytes: runtime.reduce((sum, v) => sum + (v.bytes ?? 0), 0), // of the sizes known: unknownActivations says how many are left out
    unknownActivations: unknownShapes.length,
    bodyNodes: model.nodes.filter((n) => n.subgraphs.length > 0).length,
    constants: model.values.filter((v) => kindOf(v) === 'constant').length,
    values,
    unknownShapes,
    diagnostics: model.diagnostics,
  };
}
