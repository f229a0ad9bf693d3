// The result of shape inference: every value with its dtype, concrete shape and
// size in bytes. Plain data; the planner and the views read only this.

import type { DataTypeCode, IrDiagnostic, IrModel, ModelFormat } from './ir';
import type { IrTflite } from './ir-tflite';

/** How a value is used in the graph. */
export type ValueKind =
  | 'input' // a graph input the caller provides
  | 'output' // a graph output (also produced by a node)
  | 'activation' // an intermediate result computed at run time
  | 'initializer' // a weight stored in the file
  | 'constant'; // computable from constants alone (Constant, shape arithmetic on static shapes)

/** A value with its inferred type. */
export interface InferredValue {
  readonly name: string;
  readonly kind: ValueKind;
  readonly dtype: DataTypeCode | undefined;
  readonly dtypeName: string; // 'float32', 'float16', 'int4', ... or '?' when unknown
  readonly shape: readonly number[] | undefined; // undefined: unknown
  readonly bytes: number | undefined; // shape product × dtype size, sub-byte rounded up; undefined: unknown
  readonly producer: number | undefined; // index into `nodes`, undefined for inputs/initializers
  readonly consumers: readonly number[]; // indices into `nodes`, in execution order
  readonly unknownReason?: string; // why shape or bytes is unknown
  readonly pastLimit?: true; // bytes known to pass 2^53 − 1 (so `bytes` is undefined, not exact): more than any size limit or budget holds
  readonly upperBound?: boolean; // shape is an upper bound (data-dependent output, e.g. NonZero)
}

/** A node of the main graph, with its subgraphs already inferred. */
export interface InferredNode {
  readonly name: string;
  readonly opType: string;
  readonly domain: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly subgraphs: readonly InferredGraph[]; // If/Loop/Scan bodies
  readonly constant: boolean; // every output is computable from constants alone
  readonly attributes?: Readonly<Record<string, NodeAttribute>>; // numeric and string attributes (kernel_shape, strides, pads, group...); absent when none
  readonly branch?: BranchAssumption; // If/Loop: the branch or trip count the sizes rest on, when it was not known from constants
  readonly takenBranch?: number; // If: index into `subgraphs` of the branch that runs (known or assumed); absent when both may
}

/** A node attribute the planner may read: a number, a list of numbers, or a string. */
export type NodeAttribute = number | readonly number[] | string;

/** A symbolic dim of the model and the value used for it. */
export interface DimBinding {
  readonly name: string; // the symbolic name, or "<input>:<axis>" for an anonymous dim
  readonly value: number;
  readonly source: 'user' | 'default' | 'derived'; // derived: fixed by dims the user gave (a total length, their sum), no guess
  readonly axes: readonly string[]; // the graph-input axes it sizes, as "<input>:<axis>" ("pixel_values:2")
  readonly rule: string; // how the value was chosen, in words ("given by the user", "4-D image input: a typical image size")
  readonly givenAs?: string; // the key the user gave the value by, where not the dim's name: a graph-input axis it sizes ("x:0")
  readonly sumOf?: readonly string[]; // a total length: the dims the graph requires it to be the sum of (sequence, past); not a free axis
  readonly sizesNothing?: true; // a default or a dim the user bound whose every axis has a shape the user gave, named by no other declaration that sized a tensor: nothing rests on it
}

/** An If whose branch inference had to choose, or a Loop whose trip count it had to guess. */
export interface BranchAssumption {
  readonly node: string;
  readonly taken: string; // 'then' | 'else' | 'both' (If); the trip count used (Loop), as text
  readonly reason: string; // why, in words
}

/** A graph with inferred values (main graph or subgraph). */
export interface InferredGraph {
  readonly name: string;
  readonly nodes: readonly InferredNode[];
  readonly values: readonly InferredValue[]; // every value, in first-appearance order
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly persistent?: readonly string[]; // values that live for the whole run (TFLite variable tensors); absent when none
  readonly unfed?: readonly string[]; // activations present from the start that no node produces and the caller does not provide (a Vela ethos-u operator's scratch); absent when none
}

/** A diagnostic from decoding or inference. */
export type ModelDiagnostic = IrDiagnostic;

/** The whole inferred model, as the CLI, the worker and the views use it. */
export interface InferredModel extends InferredGraph {
  readonly info: ModelInfo;
  readonly dims: readonly DimBinding[];
  readonly shapes: Readonly<Record<string, readonly number[]>>; // user-given shapes that replaced inferred ones, by tensor name
  readonly inputValues: Readonly<Record<string, readonly number[]>>; // user-given values of graph inputs, by name
  readonly diagnostics: readonly ModelDiagnostic[];
  readonly format?: ModelFormat; // absent: 'onnx'
  readonly tflite?: IrTflite; // a TFLite model's runtime view, for the planner's runtime plan
}

/** Header facts about the file. */
export interface ModelInfo {
  readonly producerName: string;
  readonly producerVersion: string;
  readonly irVersion: number;
  readonly opsets: IrModel['opsets'];
  readonly fileBytes: number;
}
