// The result of one measurement (bench/decode-one.ts), as it travels from the child
// process to bench/decode.ts: one JSON line on the child's stdout.

import type { MemoryPeaks } from './decode-memory';

/** How a step ended: done, not implemented yet (the stub throws), or failed. */
export type StepStatus = 'ok' | 'missing' | 'error' | 'skipped';

/** Wall-clock times of one read → decode → infer pass, in milliseconds. */
export interface PassTimes {
  readonly readMs: number;
  readonly decodeMs: number | undefined;
  readonly inferMs: number | undefined;
}

/** Facts about what decodeOnnx and inferShapes returned. */
export interface ModelFacts {
  readonly nodes: number;
  readonly initializers: number;
  readonly rawBytes: number; // sum of raw_data views
  readonly copiedInitializers: number; // raw not a view of the file bytes
  readonly copiedBytes: number;
  readonly values: number | undefined; // inferred values
  readonly unknownShapes: number | undefined;
  readonly diagnostics: number;
}

/** Separate warm timings (best of five) that say where decode time goes (big model only). */
export interface DecodeProbes {
  readonly protobufDecodeMs: number; // onnx.ModelProto.decode alone, no IR
  readonly protobufRawIsView: boolean; // protobufjs returns raw_data as a view
  readonly warmDecodeMs: number | undefined; // decodeOnnx on the same bytes
  readonly otherView: 'buffer' | 'uint8array';
  readonly otherViewDecodeMs: number | undefined; // decodeOnnx on the other kind of bytes
}

/** Everything one child process measured. */
export interface OneResult {
  readonly file: string;
  readonly fileBytes: number;
  readonly view: 'buffer' | 'uint8array'; // what decodeOnnx was given
  readonly decode: StepStatus;
  readonly infer: StepStatus;
  readonly error: string | undefined; // first error message, if any
  readonly first: PassTimes; // the first pass: cold JIT, as a user sees it
  readonly best: PassTimes | undefined; // the fastest of the repeated passes (warm)
  readonly passes: number;
  readonly memory: MemoryPeaks; // of the first pass
  readonly facts: ModelFacts | undefined;
  readonly probes: DecodeProbes | undefined;
}
