// One ONNX backend test case (a dir with model.onnx and test_data_set_0/*.pb):
// decode, feed the recorded inputs, infer, and compare every graph output's
// inferred shape with the recorded output's dims.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pkg from 'onnx-proto';
import { decodeOnnx } from '../src/model/onnx/decode-onnx';
import { newDecodeContext, tensorFromProto } from '../src/model/onnx/decode-tensor';
import { inferShapes } from '../src/model/infer/shapes';
import type { IrModel, IrTensor, IrValueInfo } from '../src/model/ir';

const { onnx } = pkg;

/** How one case ended. */
export type CaseStatus = 'right' | 'wrong' | 'unsupported' | 'error';

/** One compared graph output. */
export interface OutputCheck {
  readonly name: string;
  readonly expected: readonly number[];
  readonly inferred: readonly number[] | undefined;
  readonly expectedDtype: number;
  readonly inferredDtype: number | undefined;
  readonly reason?: string; // why the inferred shape is unknown
}

/** The result of one test dir. */
export interface CaseResult {
  readonly name: string; // the dir name, e.g. test_conv_with_strides_padding
  readonly op: string; // op type of the node producing the first graph output
  readonly status: CaseStatus;
  readonly detail: string; // what went wrong, '' when right
  readonly outputs: readonly OutputCheck[];
}

/**
 * Largest recorded input fed as a constant value. The test data gives every
 * input's values; feeding the small ones lets value-dependent shapes (Reshape
 * targets, Slice bounds, Resize scales, and the data-dependent outputs of
 * Unique or NonMaxSuppression) resolve exactly, as they would at run time.
 */
const MAX_FED_ELEMENTS = 4096;

function readTensor(path: string): IrTensor {
  return tensorFromProto(onnx.TensorProto.decode(readFileSync(path)), newDecodeContext(), path);
}

/** Whether a recorded input is fed as a constant (its value may matter for shapes) rather than as a shape only. */
function feedsValue(t: IrTensor): boolean {
  return t.dtype !== 8 && t.dims.reduce((a, b) => a * b, 1) <= MAX_FED_ELEMENTS;
}

/**
 * The model with test_data_set_0's inputs fed: each tensor input's declared
 * shape becomes the recorded dims; small shape-like inputs become constants.
 * Declared output shapes and value_info are removed.
 */
function feedInputs(model: IrModel, dataDir: string): IrModel {
  const inputs: IrValueInfo[] = [];
  const constants: IrTensor[] = [];
  model.graph.inputs.forEach((input, i) => {
    const path = join(dataDir, `input_${i}.pb`);
    if (input.kind !== 'tensor' || !existsSync(path)) {
      inputs.push(input);
      return;
    }
    const t = readTensor(path);
    if (feedsValue(t)) constants.push({ ...t, name: input.name });
    else inputs.push({ ...input, dtype: input.dtype ?? t.dtype, shape: t.dims });
  });
  // The test files declare every output's shape; inference must find them on its own.
  const outputs = model.graph.outputs.map((o) => ({ ...o, dtype: undefined, shape: undefined }));
  const graph = { ...model.graph, inputs, outputs, valueInfo: [], initializers: [...model.graph.initializers, ...constants] };
  return { ...model, graph };
}

function mainOp(model: IrModel): string {
  const first = model.graph.outputs[0]?.name;
  const node = model.graph.nodes.find((n) => n.outputs.includes(first ?? '')) ?? model.graph.nodes[0];
  if (node === undefined) return '(no nodes)';
  return node.domain === '' ? node.opType : `${node.domain}::${node.opType}`;
}

const sameDims = (a: readonly number[] | undefined, b: readonly number[]): boolean =>
  a !== undefined && a.length === b.length && a.every((d, i) => d === b[i]);

/** Runs one test dir. */
export function runCase(dir: string, name: string): CaseResult {
  let op = '?';
  try {
    const model = decodeOnnx(new Uint8Array(readFileSync(join(dir, 'model.onnx'))));
    op = mainOp(model);
    // A sequence or optional output has no single shape to compare. Such inputs
    // are not fed (their records are not TensorProtos): their declared types stand.
    if (model.graph.outputs.some((v) => v.kind !== 'tensor')) {
      return { name, op, status: 'unsupported', detail: 'sequence or optional output', outputs: [] };
    }
    const inferred = inferShapes(feedInputs(model, join(dir, 'test_data_set_0')));
    const byName = new Map(inferred.values.map((v) => [v.name, v]));
    const outputs = model.graph.outputs.map((o, i): OutputCheck => {
      const recorded = readTensor(join(dir, 'test_data_set_0', `output_${i}.pb`));
      const value = byName.get(o.name);
      const reason = value?.unknownReason;
      return {
        name: o.name,
        expected: recorded.dims,
        inferred: value?.shape,
        expectedDtype: recorded.dtype,
        inferredDtype: value?.dtype,
        ...(reason === undefined ? {} : { reason }),
      };
    });
    const wrong = outputs.filter((c) => !sameDims(c.inferred, c.expected));
    const detail = wrong
      .map((c) => `${c.name}: got ${c.inferred ? `[${c.inferred.join(',')}]` : `unknown (${c.reason ?? '?'})`}, want [${c.expected.join(',')}]`)
      .join('; ');
    return { name, op, status: wrong.length === 0 ? 'right' : 'wrong', detail, outputs };
  } catch (error) {
    return { name, op, status: 'error', detail: error instanceof Error ? error.message : String(error), outputs: [] };
  }
}
