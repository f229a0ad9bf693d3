// The project's intermediate representation of a model: plain, structured-cloneable
// data with no ONNX protobuf or TFLite flatbuffer types. Everything outside
// src/model sees only this.

import type { IrTflite } from './ir-tflite';

/** The file format a model was decoded from. */
export type ModelFormat = 'onnx' | 'tflite';

/** ONNX TensorProto.DataType code (numbers past BFLOAT16 = 16 included: float8, int4, float4...). */
export type DataTypeCode = number;

/**
 * One dimension as declared in the file: a number, a symbolic name, or undefined
 * for an anonymous dim (neither value nor name).
 */
export type DeclaredDim = number | string | undefined;

/** A dim the file declares as a number that is no size (below zero, or past 2^53 − 1). */
export interface IrInvalidDim {
  readonly axis: number;
  readonly value: string; // the declared number, exactly as written
}

/** A tensor's type as declared in the file (graph input/output or value_info). */
export interface IrValueInfo {
  readonly name: string;
  readonly dtype: DataTypeCode | undefined; // undefined: not a tensor type, or not given
  readonly shape: readonly DeclaredDim[] | undefined; // undefined: rank unknown
  readonly kind: 'tensor' | 'sequence' | 'map' | 'optional' | 'sparse' | 'unknown';
  /** Axes declared as a number that is no size: undefined in `shape`, and never given a default (the tensor's size is unknown). */
  readonly invalidDims?: readonly IrInvalidDim[];
}

/** Where an external-data tensor's bytes live. */
export interface IrExternalData {
  readonly location: string;
  readonly offset: number;
  readonly length: number | undefined;
}

/**
 * A constant tensor (initializer, Constant node value, attribute tensor).
 * `raw` is a view into the file's bytes, never a copy; typed fields hold values
 * stored in the repeated fields of TensorProto instead.
 */
export interface IrTensor {
  readonly name: string;
  readonly dtype: DataTypeCode;
  readonly dims: readonly number[];
  readonly raw: Uint8Array | undefined; // raw_data view into the source bytes
  readonly values: readonly number[] | readonly bigint[] | undefined; // from float/int32/int64/double/uint64 fields
  readonly strings: readonly string[] | undefined; // string tensors
  readonly external: IrExternalData | undefined; // bytes stored outside the model file
}

/** A node attribute, tagged by kind. */
export type IrAttribute =
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'tensor'; readonly value: IrTensor }
  | { readonly kind: 'graph'; readonly value: IrGraph }
  | { readonly kind: 'floats'; readonly value: readonly number[] }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'strings'; readonly value: readonly string[] }
  | { readonly kind: 'tensors'; readonly value: readonly IrTensor[] }
  | { readonly kind: 'graphs'; readonly value: readonly IrGraph[] }
  | { readonly kind: 'other'; readonly value: undefined }; // sparse tensors, type protos, ref attrs

/** One operator. Missing optional inputs are the empty string, as in ONNX. */
export interface IrNode {
  readonly name: string; // the file's name, or a generated "OpType_<index>" when empty
  readonly opType: string;
  readonly domain: string; // '' for the default ONNX domain ('ai.onnx' is normalised to '')
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes: Readonly<Record<string, IrAttribute>>;
}

/** A graph (the main graph or an If/Loop/Scan body). */
export interface IrGraph {
  readonly name: string;
  readonly nodes: readonly IrNode[];
  readonly inputs: readonly IrValueInfo[]; // without the inputs that are initializers
  readonly outputs: readonly IrValueInfo[];
  readonly valueInfo: readonly IrValueInfo[];
  readonly initializers: readonly IrTensor[];
  readonly persistent?: readonly string[]; // values that live for the whole run (TFLite variable tensors); absent when none
  readonly unfed?: readonly string[]; // listed in `inputs` so they exist from the start, but read by operators only: no operator writes them and the caller does not provide them (a Vela ethos-u operator's scratch); absent when none
}

/** An operator set import. */
export interface IrOpset {
  readonly domain: string; // '' for the default ONNX domain
  readonly version: number;
}

/** A note about the file that is not fatal (missing external data, string tensors...). */
export interface IrDiagnostic {
  readonly code: string;
  readonly message: string;
  readonly node?: string;
  readonly binding?: BindingRef; // the shape or input value given that an unused-binding is about
}

/** A shape (--shape NAME=…) or a graph input's value (--input NAME=…) given to a model, by the name it was given for. */
export interface BindingRef {
  readonly kind: 'shape' | 'input';
  readonly name: string;
}

/** A decoded model. */
export interface IrModel {
  readonly irVersion: number;
  readonly producerName: string;
  readonly producerVersion: string;
  readonly domain: string;
  readonly modelVersion: number;
  readonly opsets: readonly IrOpset[];
  readonly graph: IrGraph;
  readonly fileBytes: number;
  readonly metadata?: Readonly<Record<string, string>>; // metadata_props (null-prototype object); absent when none
  readonly diagnostics: readonly IrDiagnostic[];
  readonly format?: ModelFormat; // absent: 'onnx'
  readonly tflite?: IrTflite; // TFLite models only: subgraphs, tensors and offline plan as the runtime sees them
}
