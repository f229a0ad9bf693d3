// Typed errors for bad input from outside (files, URLs, CSVs, target profiles).
// They cross the worker boundary as plain data. Depends on short-name alone.

import { boundedMessage } from './short-name';

/** Error codes for bad input. Stable: the CLI JSON and the page both show them. */
export type InputErrorCode =
  | 'empty-file'
  | 'truncated'
  | 'not-onnx'
  | 'not-a-model'
  | 'bad-graph'
  | 'too-large'
  | 'bad-argument'
  | 'bad-csv'
  | 'bad-target'
  | 'bad-plan'
  | 'bad-url'
  | 'io';

/**
 * Bad input from outside: a code and one sentence naming the offending value.
 * The sentence is bounded (boundedMessage): a name of a megabyte is cut in its
 * middle and what is said of it stays, in the CLI's line, its JSON and the page.
 */
export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly code: InputErrorCode,
    message: string,
    readonly field?: string, // the path of the offending field in the input document ('regions[0].alignment' of a target profile), or the page's TargetField (settings/types.ts) it came from
  ) {
    super(boundedMessage(message));
  }
}

/** The plain-data form of an error, as it crosses the worker boundary and appears in JSON. */
export interface ErrorData {
  readonly code: string; // an InputErrorCode, or 'internal'
  readonly message: string;
  readonly field?: string; // the path of the offending field in the input document, when one is to blame (InputError.field)
}

/** Turns anything thrown into plain error data; unknown throws become `internal`. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof InputError) return { code: error.code, message: error.message, ...(error.field !== undefined && { field: error.field }) };
  if (error instanceof Error) return { code: 'internal', message: `${error.name}: ${error.message}` };
  return { code: 'internal', message: String(error) };
}
