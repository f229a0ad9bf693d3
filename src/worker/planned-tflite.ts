// The .tflite file the worker holds, with a plan written in as TensorFlow Lite
// Micro's offline plan (OfflineMemoryAllocation metadata), for the page's
// download: the worker keeps the bytes it decoded, so the page never holds a
// copy of the weights. Pure of any worker or DOM API.

import type { IrModel } from '../model/ir';
import { withOfflinePlan } from '../model/tflite/write-offline-plan';
import { InputError } from '../shared/errors';
import type { PlannedTfliteRequest } from './protocol';

/** The model a worker holds: its IR, the name it was opened under, and its bytes (kept for a .tflite file only). */
export interface HeldModel {
  readonly ir: IrModel;
  readonly name: string;
  readonly bytes: Uint8Array | undefined;
}

/** True when the worker holds the file the request is about (a restarted worker holds none). */
export function holdsFile(held: HeldModel | undefined, request: Pick<PlannedTfliteRequest, 'name' | 'size'>): held is HeldModel {
  return held !== undefined && held.name === request.name && held.ir.fileBytes === request.size;
}

/**
 * The held file with the request's offsets as its offline plan, in an
 * ArrayBuffer of its own (to transfer). Throws InputError when the file is not
 * a TensorFlow Lite model or the offsets do not cover its tensors.
 */
export function plannedTfliteBytes(held: HeldModel, request: Pick<PlannedTfliteRequest, 'name' | 'offsets'>): ArrayBuffer {
  const tflite = held.ir.tflite;
  if (held.ir.format !== 'tflite' || tflite === undefined || held.bytes === undefined) {
    throw new InputError('not-a-model', `${request.name} is not a TensorFlow Lite model: only a .tflite file carries an offline plan`);
  }
  const tensors = tflite.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  if (request.offsets.length !== tensors) {
    throw new InputError('bad-argument', `the plan has ${request.offsets.length} tensor offsets, but ${request.name} has ${tensors} tensors`);
  }
  const file = withOfflinePlan(held.bytes, request.offsets);
  // withOfflinePlan writes a fresh array of the whole file; its buffer is transferred as it is.
  return file.byteOffset === 0 && file.byteLength === file.buffer.byteLength ? (file.buffer as ArrayBuffer) : file.slice().buffer;
}
