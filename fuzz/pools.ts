// Value pools of the model fuzzer: dims, integers and floats that break
// arithmetic (negative, huge, NaN, past 2^53), and the attribute names shape
// rules read. Depends only on the fuzz random source.

import type { Rng } from './random';

/** Dims a graph input may declare: ordinary, zero, huge, negative (-1: unknown), symbolic, anonymous. */
const DIMS: readonly (number | string | undefined)[] = [1, 1, 2, 3, 4, 7, 8, 16, 64, 0, 2 ** 31, 2 ** 40, 2 ** 52, -1, -5, 'N', 'constructor', undefined];

/** Integers for attributes and int64 constants. */
const INTS: readonly number[] = [0, 1, 2, 3, -1, -2, 4, 8, -6, 100, 255, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 40, 2 ** 53, -(2 ** 53)];

/** Floats for attributes and float constants. */
const FLOATS: readonly number[] = [0, 1, 0.5, 2, -1, 1.5, 1e-9, 1e30, -3.5, NaN, Infinity, -Infinity, 2 ** 60];

/** Attribute names read by shape rules, with the kind of value they usually take. */
export const ATTRIBUTES: readonly (readonly [string, 'int' | 'ints' | 'float' | 'floats' | 'string'])[] = [
  ['axis', 'int'], ['axes', 'ints'], ['keepdims', 'int'], ['perm', 'ints'], ['shape', 'ints'], ['kernel_shape', 'ints'],
  ['strides', 'ints'], ['pads', 'ints'], ['dilations', 'ints'], ['group', 'int'], ['output_padding', 'ints'],
  ['output_shape', 'ints'], ['num_outputs', 'int'], ['split', 'ints'], ['repeats', 'ints'], ['hidden_size', 'int'],
  ['direction', 'string'], ['k', 'int'], ['blocksize', 'int'], ['to', 'int'], ['dtype', 'int'], ['scales', 'floats'],
  ['size', 'int'], ['count_include_pad', 'int'], ['ceil_mode', 'int'], ['auto_pad', 'string'], ['mode', 'string'],
  ['num_heads', 'int'], ['sample_size', 'int'], ['batch_dims', 'int'], ['new_axis', 'int'], ['starts', 'ints'],
  ['ends', 'ints'], ['largest', 'int'], ['sorted', 'int'], ['value', 'float'], ['alpha', 'float'], ['epsilon', 'float'],
  ['layout', 'int'], ['output_sequence', 'int'], ['equation', 'string'], ['onesided', 'int'], ['frame_length', 'int'],
  ['periodic', 'int'], ['output_datatype', 'int'], ['coordinate_transformation_mode', 'string'], ['spatial_scale', 'float'],
  ['output_height', 'int'], ['output_width', 'int'], ['pooled_shape', 'ints'], ['nbins', 'int'], ['select_last_index', 'int'],
];

const STRINGS: readonly string[] = ['SAME_UPPER', 'VALID', 'NOTSET', 'forward', 'bidirectional', 'reverse', 'linear', 'nearest', 'ij,jk->ik', '...ii->...i', 'bogus', ''];

/** A declared dim. */
export function randomDim(rng: Rng): number | string | undefined {
  return rng.chance(0.7) ? rng.pick(DIMS.slice(0, 8)) : rng.pick(DIMS);
}

/** An integer, usually small, sometimes extreme. */
export function randomInt(rng: Rng): number {
  return rng.chance(0.7) ? rng.int(-2, 8) : rng.pick(INTS);
}

/** A float, usually plain, sometimes NaN, infinite or huge. */
export function randomFloat(rng: Rng): number {
  return rng.chance(0.6) ? rng.pick([0.5, 1, 2, 3]) : rng.pick(FLOATS);
}

/** A list of `length` integers (random length when absent). */
export function randomInts(rng: Rng, length = rng.int(0, 6)): number[] {
  return Array.from({ length }, () => randomInt(rng));
}

/** A string attribute value. */
export function randomString(rng: Rng): string {
  return rng.pick(STRINGS);
}
