// What a TensorFlow Lite model says beyond the format-neutral IR graph: its
// subgraphs as the runtime sees them (tensor indices, variable tensors, called
// subgraphs), quantization, and an offline memory plan when it carries one.
// Plain data, no flatbuffer types: the runtime plan (planner/tflm) reads it.

/** Per-tensor or per-axis quantization parameters (real = scale × (q − zeroPoint)). */
export interface IrQuantization {
  readonly scale: readonly number[];
  readonly zeroPoint: readonly number[];
  readonly axis: number; // the axis the scales run along when there are several
}

/** One tensor of a subgraph, by its index in the file. */
export interface IrTfliteTensor {
  readonly value: string; // the IR value name (the file's name, made unique)
  readonly type: string; // TensorType name: 'INT8', 'FLOAT32', …
  readonly shape: readonly number[]; // the shape TFLite Micro allocates
  readonly signature: readonly number[] | undefined; // shape_signature: -1 for an open dim
  readonly bytes: number | undefined; // elements × element size; undefined for STRING, RESOURCE, VARIANT
  readonly constant: boolean; // its buffer holds data (a weight)
  readonly variable: boolean; // is_variable: state kept across invocations
  readonly quantization: IrQuantization | undefined;
}

/** One operator, in the subgraph's execution order. */
export interface IrTfliteOperator {
  readonly node: string; // the IR node's name
  readonly op: string; // builtin name (CONV_2D) or custom code
  readonly custom: boolean;
  readonly inputs: readonly number[]; // tensor indices; -1 for an omitted optional input
  readonly outputs: readonly number[];
  readonly intermediates: readonly number[];
  readonly calls: readonly number[]; // subgraphs it runs: IF then/else, WHILE cond/body, CALL_ONCE init, CALL
  readonly options: Readonly<Record<string, number>>; // the builtin options the planner reads
  readonly customOptions?: IrCustomOptions; // a custom operator whose kernel the planner knows: the options it reads
  readonly resource?: string; // VAR_HANDLE: the resource variable's shared name
}

/** A custom operator's options as read from its FlexBuffer: the numbers found (booleans as 0 and 1), or why they could not be read. */
export type IrCustomOptions = { readonly numbers: Readonly<Record<string, number>> } | { readonly unreadable: string };

/** A subgraph: its tensors, inputs, outputs and operators. */
export interface IrTfliteSubgraph {
  readonly name: string;
  readonly tensors: readonly IrTfliteTensor[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly operators: readonly IrTfliteOperator[];
}

/**
 * An `OfflineMemoryAllocation` metadata entry (TFLite Micro's
 * docs/memory_management.md): one byte offset per tensor of the listed
 * subgraphs, in order, or -1 to leave the tensor to the runtime's planner.
 */
export interface IrOfflinePlan {
  readonly version: number; // 0 as TFLite Micro documents it; files from other tools may differ (not read by the runtime)
  readonly subgraph: number; // word 1: the index of the subgraph the plan applies to, as TFLM's documentation defines it (heapscope writes 0; files from other tools may hold another value, the subgraph count among them; the runtime does not read it)
  readonly offsets: readonly number[];
}

/** The TensorFlow Lite side of a decoded model. */
export interface IrTflite {
  readonly schemaVersion: number;
  readonly subgraphs: readonly IrTfliteSubgraph[];
  readonly metadata: readonly string[]; // metadata entry names, in file order
  readonly offlinePlan: IrOfflinePlan | undefined;
}
