// ONNX bytes -> IR model (src/model/ir.ts). Public entry point of the model layer's decoder.
// No DOM; the decode-* modules behind it are the only ones that see onnx-proto types.
//
// How it works:
// - the leading bytes are checked first, so a PNG or a text file gets a sentence
//   saying what it is, and a walk over the top-level protobuf fields tells a
//   truncated model from bytes that were never one (decode-sniff.ts);
// - onnx-proto (protobufjs static code) decodes the ModelProto; `bytes` fields
//   come back as subarrays of the input, so weights are views, never copies;
// - the protobuf objects are converted to the IR (decode-graph.ts and friends):
//   Long integers to numbers, empty node names to "OpType_<index>", initializers
//   dropped from the graph inputs, a Constant's value_* attribute to one `value`
//   tensor, subgraphs decoded recursively;
// - nodes of a domain that opset_import does not list get a warning (decode-domains.ts);
// - checkGraph then rejects graphs that read undefined tensors or have cycles.

import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import protobuf from 'protobufjs/minimal.js';
import { InputError } from '../../shared/errors';
import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { checkGraph } from '../check-graph';
import { missingOpsetDiagnostics } from './decode-domains';
import { graphFromProto, normaliseDomain } from './decode-graph';
import { int64ToNumber, list } from './decode-scalars';
import { MAX_MODEL_BYTES, rejectKnownFormats, rejectNonModelProtobuf } from './decode-sniff';
import { externalDataDiagnostic, newDecodeContext } from './decode-tensor';
import type { IrModel, IrOpset } from '../ir';
import { utf8 } from '../utf8';

// onnx-proto is CommonJS: Node's ESM loader exposes only its default export.
const { onnx } = onnxProto;

/** Progress callback: fraction in [0, 1] and a short label. */
export type ProgressFn = (fraction: number, label: string) => void;

/** Options of decodeOnnx. */
export interface DecodeOptions {
  readonly onProgress?: ProgressFn;
}

/**
 * Decodes ONNX model bytes. Weights are views into `bytes`, never copies.
 * Throws InputError (code + sentence) for anything that is not a usable model:
 * 'empty-file', 'too-large', 'not-onnx', 'truncated', 'not-a-model', 'bad-graph'.
 * What is odd but usable becomes a diagnostic: 'external-data' (one, naming the
 * weight files), 'string-tensor', 'sparse-initializer', 'invalid-dim', 'missing-opset'.
 */
export function decodeOnnx(bytes: Uint8Array, options: DecodeOptions = {}): IrModel {
  const progress = options.onProgress ?? (() => undefined);
  progress(0, 'Reading the model file');
  rejectUnusable(bytes);
  const proto = decodeProto(bytes);
  progress(0.6, 'Converting the graph');
  const model = convertModel(proto, bytes.byteLength);
  progress(0.9, 'Checking the graph');
  checkGraph(model);
  progress(1, 'Decoded');
  return model;
}

function rejectUnusable(bytes: Uint8Array): void {
  if (bytes.byteLength === 0) throw new InputError('empty-file', 'the file is empty (0 bytes)');
  if (bytes.byteLength > MAX_MODEL_BYTES) {
    throw new InputError(
      'too-large',
      `the file is ${formatBytes(bytes.byteLength)}, larger than the 2 GiB an ONNX protobuf can hold ` +
        '(models this large keep their weights in external data files)',
    );
  }
  rejectKnownFormats(bytes);
  rejectNonModelProtobuf(bytes);
}

/**
 * A reader whose strings are read by TextDecoder: each invalid UTF-8 byte of a
 * name becomes U+FFFD, where protobufjs's own reader drops it silently (two
 * names differing in such a byte would read as one). Nested messages are read
 * with the same reader, so every string field of the model goes through it.
 */
class Utf8Reader extends protobuf.Reader {
  override string(): string {
    return utf8(this.bytes());
  }
}

/** Runs protobufjs, turning whatever it throws into an InputError. */
function decodeProto(bytes: Uint8Array): Onnx.ModelProto {
  try {
    return onnx.ModelProto.decode(new Utf8Reader(bytes));
  } catch (error) {
    throw new InputError('not-onnx', `the model is damaged: ${protobufProblem(error)}`);
  }
}

/** A protobufjs error in words a person can act on. */
function protobufProblem(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  if (/call stack/i.test(detail)) return 'its protobuf messages nest too deeply to read';
  if (/index out of range/.test(detail)) return 'a length inside it points past the end of the data that holds it';
  const wire = /invalid wire type (\d+) at offset (\d+)/.exec(detail);
  if (wire) return `invalid protobuf data (wire type ${wire[1]}) near byte ${wire[2]}`;
  return `its protobuf data does not decode (${detail})`;
}

function convertModel(proto: Onnx.ModelProto, fileBytes: number): IrModel {
  const irVersion = int64ToNumber(proto.irVersion);
  if (!proto.graph) {
    const hint = irVersion >= 1 ? ' (it has an ir_version: was the file cut short?)' : '';
    throw new InputError('not-a-model', `this protobuf file holds no graph, so it is not an ONNX model${hint}`);
  }
  if (!(irVersion >= 1)) throw new InputError('not-a-model', 'this protobuf file has no ir_version, so it is not an ONNX model');
  const opsets = list(proto.opsetImport).map(
    (o): IrOpset => ({ domain: normaliseDomain(o.domain), version: int64ToNumber(o.version) }),
  );
  if (opsets.length === 0) {
    throw new InputError('not-a-model', 'the model imports no operator set (opset_import is missing; was the file cut short?)');
  }
  const bad = opsets.find((o) => !Number.isSafeInteger(o.version) || o.version < 1);
  if (bad !== undefined) {
    throw new InputError('not-a-model', `the model imports operator set '${shortName(bad.domain || 'ai.onnx')}' at invalid version ${bad.version}`);
  }
  const ctx = newDecodeContext();
  const graph = graphFromProto(proto.graph, ctx);
  const external = externalDataDiagnostic(ctx);
  const unimported = missingOpsetDiagnostics(graph, opsets);
  const metadata = metadataOf(proto.metadataProps);
  return {
    irVersion,
    ...(metadata !== undefined && { metadata }),
    producerName: proto.producerName ?? '',
    producerVersion: proto.producerVersion ?? '',
    domain: proto.domain ?? '',
    modelVersion: int64ToNumber(proto.modelVersion ?? 0),
    opsets,
    graph,
    fileBytes,
    diagnostics: [...unimported, ...(external === undefined ? [] : [external]), ...ctx.diagnostics],
  };
}

/** metadata_props as a null-prototype object (keys come from the file), or undefined when there are none. */
function metadataOf(props: readonly { key?: string | null; value?: string | null }[] | null | undefined): Record<string, string> | undefined {
  if (props === undefined || props === null || props.length === 0) return undefined;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const p of props) if (typeof p.key === 'string') out[p.key] = typeof p.value === 'string' ? p.value : '';
  return out;
}
