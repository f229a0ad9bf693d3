// TensorFlow Lite bytes -> IR model (src/model/ir.ts, ir-tflite.ts). No DOM; the
// files of this folder are the only ones that see the flatbuffer's layout.
//
// How it works:
// - the file identifier "TFL3" at bytes 4-7 says it is a TFLite model;
// - read-model.ts reads the tables through a bounds-checked reader
//   (flat-reader.ts): a truncated file, an offset or vector past the end, a
//   vtable outside the file or an index past its table is an InputError;
// - subgraph calls (IF, WHILE, CALL_ONCE, CALL) are checked for cycles;
// - each subgraph becomes an IR graph: operators are nodes (op type = builtin
//   name or custom code, domain 'tflite'), tensors with buffer data are
//   initializers (views into the file), every other tensor is declared with
//   its shape from the file (an open dim of shape_signature on axis 0 is the
//   symbolic dim `batch`), variable tensors are graph inputs that persist;
// - the runtime's view (tensor indices, variables, quantization, called
//   subgraphs, an offline plan) is kept beside the graph for the planner.

import { InputError } from '../../shared/errors';
import { formatBytes } from '../../shared/format';
import { checkGraph } from '../check-graph';
import { dataTypeBits } from '../dtype';
import type { IrAttribute, IrDiagnostic, IrGraph, IrModel, IrNode, IrTensor, IrValueInfo } from '../ir';
import type { IrOfflinePlan, IrTflite, IrTfliteOperator, IrTfliteSubgraph, IrTfliteTensor } from '../ir-tflite';
import { customOptions } from './custom-options';
import { FlatReader } from './flat-reader';
import { decodeOfflinePlan, isIgnoredOfflinePlanName, isOfflinePlanName, OFFLINE_PLAN_NAME } from './offline-plan';
import { readModel, type WireModel, type WireSubgraph, type WireTensor } from './read-model';
import { OP, TENSOR_TYPES } from './schema';
import { calledSubgraphs, operatorOptions, rejectCyclicCalls } from './subgraph-calls';

/** Largest file a flatbuffer can address (its offsets are 32-bit). */
const MAX_TFLITE_BYTES = 2 ** 31 - 1;

/** The op domain of TFLite builtin operators; custom operators use 'tflite.custom'. */
export const TFLITE_DOMAIN = 'tflite';

/** True when the bytes carry TFLite's file identifier. */
export function isTflite(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && bytes[4] === 0x54 && bytes[5] === 0x46 && bytes[6] === 0x4c && bytes[7] === 0x33;
}

/**
 * Decodes TFLite model bytes. Weights are views into `bytes`, never copies.
 * Throws InputError for anything that is not a usable model: 'truncated'
 * (an offset or length past the end), 'not-a-model' (damaged tables),
 * 'bad-graph' (indices out of range, subgraphs that call each other).
 */
export function decodeTflite(bytes: Uint8Array): IrModel {
  if (bytes.byteLength < 8) throw new InputError('truncated', `the file is ${bytes.byteLength} bytes, too short for a TensorFlow Lite model`);
  if (bytes.byteLength > MAX_TFLITE_BYTES) throw new InputError('too-large', `the file is ${formatBytes(bytes.byteLength)}, larger than the 2 GiB a TensorFlow Lite flatbuffer can address`);
  if (!isTflite(bytes)) throw new InputError('not-a-model', 'the file has no TensorFlow Lite identifier (TFL3 at byte 4)');
  const reader = new FlatReader(bytes);
  const wire = readModel(reader);
  const diagnostics: IrDiagnostic[] = [];
  const subgraphs = wire.subgraphs.map((sg, s) => runtimeSubgraph(reader, wire, sg, s));
  rejectCyclicCalls(wire, subgraphs.map((sg) => sg.operators.map((op) => op.calls)));
  const tflite: IrTflite = {
    schemaVersion: wire.version,
    subgraphs,
    metadata: wire.metadata.map((m) => m.name),
    offlinePlan: offlinePlan(wire, subgraphs),
  };
  diagnostics.push(...ignoredOfflinePlans(wire));
  const graphs = new IrGraphs(wire, tflite, diagnostics);
  const model: IrModel = {
    irVersion: wire.version,
    producerName: 'TensorFlow Lite',
    producerVersion: wire.description,
    domain: '',
    modelVersion: 0,
    opsets: [{ domain: TFLITE_DOMAIN, version: wire.version }],
    graph: graphs.graph(0),
    fileBytes: bytes.byteLength,
    ...(wire.metadata.length > 0 && { metadata: metadataRecord(wire) }),
    diagnostics,
    format: 'tflite',
    tflite,
  };
  checkGraph(model);
  return model;
}

/** The runtime's view of a subgraph: tensors sized as TFLite Micro sizes them, operators with their calls. */
function runtimeSubgraph(reader: FlatReader, wire: WireModel, sg: WireSubgraph, s: number): IrTfliteSubgraph {
  const names = uniqueNames(sg.tensors);
  const tensors = sg.tensors.map((t, i): IrTfliteTensor => {
    const type = TENSOR_TYPES[t.type]!;
    const bits = type.onnx === undefined ? undefined : dataTypeBits(type.onnx);
    const count = t.shape.reduce((a, d) => a * d, 1);
    return {
      value: names[i]!,
      type: type.name,
      shape: t.shape,
      signature: t.signature,
      bytes: bits === undefined ? undefined : Math.ceil((count * bits) / 8),
      constant: wire.buffers[t.buffer]?.data !== undefined,
      variable: t.variable,
      quantization: t.scale.length > 0 ? { scale: t.scale, zeroPoint: t.zeroPoint, axis: t.axis } : undefined,
    };
  });
  const operators = sg.operators.map((op, i): IrTfliteOperator => {
    const what = `operator ${i} (${op.op}) of subgraph ${s}`;
    const options = operatorOptions(reader, op, what);
    const custom = op.code === OP.CUSTOM ? customOptions(op.op, op.customOptions) : undefined;
    return {
      node: nodeName(s, op.op, i),
      op: op.op,
      custom: op.code === OP.CUSTOM,
      inputs: op.inputs,
      outputs: op.outputs,
      intermediates: op.intermediates,
      calls: calledSubgraphs(options, wire.subgraphs.length, what),
      options,
      ...(custom !== undefined && { customOptions: custom }),
      ...(op.op === 'VAR_HANDLE' && op.options !== undefined && { resource: reader.string(op.options, 1, `the shared name of ${what}`) }),
    };
  });
  return { name: sg.name, tensors, inputs: sg.inputs, outputs: sg.outputs, operators };
}

function nodeName(subgraph: number, op: string, index: number): string {
  const base = `${op}_${index}`;
  return subgraph === 0 ? base : `subgraph${subgraph}/${base}`;
}

/** Tensor names made unique within the subgraph: an empty or repeated name gets the tensor's index. */
function uniqueNames(tensors: readonly WireTensor[]): string[] {
  const seen = new Map<string, number>();
  for (const t of tensors) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
  return tensors.map((t, i) => (t.name === '' ? `tensor_${i}` : seen.get(t.name)! > 1 ? `${t.name}#${i}` : t.name));
}

function offlinePlan(wire: WireModel, subgraphs: readonly IrTfliteSubgraph[]): IrOfflinePlan | undefined {
  const entry = wire.metadata.filter((m) => isOfflinePlanName(m.name)).pop(); // TFLM takes the last such entry
  if (entry === undefined) return undefined;
  const tensors = subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  return decodeOfflinePlan(wire.buffers[entry.buffer]?.data, tensors);
}

/** A note for each metadata entry named like an offline plan that TFLite Micro does not read, as it is not the exact name. */
function ignoredOfflinePlans(wire: WireModel): IrDiagnostic[] {
  return wire.metadata
    .filter((m) => isIgnoredOfflinePlanName(m.name))
    .map((m) => ({
      code: 'tflite-offline-plan-ignored',
      message: `the file carries a metadata entry named '${m.name}', named like an offline plan, which TensorFlow Lite Micro ignores: it reads only an entry named exactly ${OFFLINE_PLAN_NAME}, so this entry is not the file's plan`,
    }));
}

function metadataRecord(wire: WireModel): Record<string, string> {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const m of wire.metadata) record[m.name] = `${wire.buffers[m.buffer]?.data?.byteLength ?? 0} bytes`;
  return record;
}

/** The IR graphs of the subgraphs, each built once (a subgraph run by two operators is one graph). */
class IrGraphs {
  private readonly built = new Map<number, IrGraph>();

  constructor(
    private readonly wire: WireModel,
    private readonly tflite: IrTflite,
    private readonly diagnostics: IrDiagnostic[],
  ) {}

  graph(s: number): IrGraph {
    const known = this.built.get(s);
    if (known !== undefined) return known;
    const graph = this.build(s);
    this.built.set(s, graph);
    return graph;
  }

  private build(s: number): IrGraph {
    const sg = this.tflite.subgraphs[s]!;
    const wireTensors = this.wire.subgraphs[s]!.tensors;
    const value = (i: number): string => (i < 0 ? '' : sg.tensors[i]!.value);
    const produced = new Set(sg.operators.flatMap((op) => op.outputs));
    const inputs = new Set(sg.inputs);
    const initializers: IrTensor[] = [];
    const declared: IrValueInfo[] = [];
    const unfed: string[] = [];
    sg.tensors.forEach((t, i) => {
      if (t.constant && !produced.has(i)) {
        initializers.push(this.initializer(t, wireTensors[i]!.buffer));
        return;
      }
      declared.push(valueInfo(t, this.diagnostics));
      const read = sg.operators.some((op) => op.inputs.includes(i));
      if (!produced.has(i) && !inputs.has(i) && read) {
        inputs.add(i);
        if (!t.variable) unfed.push(t.value);
      }
    });
    if (unfed.length > 0) {
      this.diagnostics.push({ code: 'tflite-unfed', message: `${unfed.length} tensor(s) of subgraph ${s} are read but neither computed, stored nor inputs, so they are planned as activations present from the start (as TensorFlow Lite Micro allocates them in its arena), not as graph inputs: ${unfed.slice(0, 5).join(', ')}` });
    }
    const info = (i: number): IrValueInfo => declared.find((d) => d.name === value(i)) ?? valueInfo(sg.tensors[i]!, this.diagnostics);
    const persistent = sg.tensors.filter((t) => t.variable).map((t) => t.value);
    return {
      name: sg.name === '' ? (s === 0 ? 'main' : `subgraph${s}`) : sg.name,
      nodes: sg.operators.map((op) => this.node(op, value)),
      inputs: [...inputs].filter((i) => !sg.tensors[i]!.constant || produced.has(i)).map(info),
      outputs: sg.outputs.map(info),
      valueInfo: declared,
      initializers,
      ...(persistent.length > 0 && { persistent }),
      ...(unfed.length > 0 && { unfed }),
    };
  }

  private node(op: IrTfliteOperator, value: (i: number) => string): IrNode {
    const attributes: Record<string, IrAttribute> = {};
    for (const [name, v] of Object.entries(op.options)) attributes[name] = { kind: 'int', value: v };
    op.calls.forEach((s, k) => {
      attributes[`subgraph_${k}`] = { kind: 'graph', value: this.graph(s) };
    });
    return {
      name: op.node,
      opType: op.op,
      domain: op.custom ? `${TFLITE_DOMAIN}.custom` : TFLITE_DOMAIN,
      inputs: op.inputs.map(value),
      outputs: op.outputs.map(value),
      attributes,
    };
  }

  private initializer(t: IrTfliteTensor, buffer: number): IrTensor {
    return {
      name: t.value,
      dtype: TENSOR_TYPES.find((x) => x.name === t.type)?.onnx ?? 0,
      dims: t.shape,
      raw: this.wire.buffers[buffer]?.data,
      values: undefined,
      strings: undefined,
      external: undefined,
    };
  }
}

/** A tensor's declared type: its shape from the file, an open axis 0 of its signature as `batch`. */
function valueInfo(t: IrTfliteTensor, diagnostics: IrDiagnostic[]): IrValueInfo {
  const onnx = TENSOR_TYPES.find((x) => x.name === t.type)?.onnx;
  if (onnx === undefined) {
    diagnostics.push({ code: 'tflite-type', message: `tensor '${t.value}' is of type ${t.type}, which has no fixed element size: its size is unknown` });
  }
  const shape = t.shape.map((d, axis) => (axis === 0 && t.signature?.[0] === -1 ? 'batch' : d));
  return { name: t.value, dtype: onnx, shape, kind: 'tensor' };
}
