// The M2 rules about a unit's traffic and composition (METHODS.md M2, step 2):
// small-map pipelining, halo redundancy, stride redundancy, single output,
// main-layer count, main-main-non-main and scalar-then-vector sequences.
// Each is a small named predicate. Depends only on the planner and src/shared.

import { formatBytes } from '../../../shared/format';
import type { FusionSettings } from '../../targets/target';
import { redundancyPercent, tileBuffers, tileKey, type Tile, type TileBuffer } from '../feature-map';
import { layerClass, type Layer } from '../layer-geometry';
import { compareBytes, layerWeightsPerCore, verdict, type Candidate, type RuleVerdict } from './verdict';
import type { UnitShape } from '../unit-ranges';

const kib = (n: number): string => formatBytes(n);

/**
 * Pipelining consecutive small-map tiles: with in1 the tile being computed and
 * in2 the next one being loaded, for each layer i: w_i + in1 + in2 <= S,
 * subin_i + w_i + in2 <= S, subout_i + w_(i+1) + in2 <= S and
 * w_i + w_(i+1) <= WRAM. With one tile for the whole batch there is no in2.
 */
export function smallMapPipeline(c: Candidate, s: FusionSettings): RuleVerdict {
  const tile = c.tile!;
  const key = tileKey(tile);
  let known = pipelines.get(c.unit);
  if (known === undefined) pipelines.set(c.unit, (known = new Map()));
  const hit = known.get(key);
  if (hit !== undefined && hit.settings === s) return hit.verdict;
  const result = pipelineVerdict(c, s);
  known.set(key, { settings: s, verdict: result });
  return result;
}

/** Pipelining verdicts already given, per unit shape and tile (the tile search and the rules both ask). */
const pipelines = new WeakMap<UnitShape, Map<string, { readonly settings: FusionSettings; readonly verdict: RuleVerdict }>>();

function pipelineVerdict(c: Candidate, s: FusionSettings): RuleVerdict {
  const tile = c.tile!;
  const buffers = tileBytesByName(c.unit, tile);
  const in1 = c.unit.inputs.reduce((sum, v) => sum + (buffers.get(v.name) ?? 0), 0);
  const batch = c.unit.output.shape![0]!;
  const in2 = Math.ceil(batch / tile.maps) > 1 ? in1 : 0;
  const w = c.unit.layers.map((l) => l.weights.reduce((sum, v) => sum + (v.bytes ?? 0), 0));
  const perCore = c.unit.layers.map((l) => layerWeightsPerCore(l, s.coresPerCluster));
  for (let i = 0; i < c.unit.layers.length; i++) {
    const l = c.unit.layers[i]!;
    const subin = l.inputs.reduce((sum, v) => sum + (buffers.get(v.name) ?? 0), 0);
    const subout = buffers.get(l.output!.name) ?? 0;
    const next = w[i + 1] ?? 0;
    const checks: [number, number, string][] = [
      [w[i]! + in1 + in2, s.sramBytes, 'w_i + in1 + in2'],
      [subin + w[i]! + in2, s.sramBytes, 'subin_i + w_i + in2'],
      [subout + next + in2, s.sramBytes, 'subout_i + w_(i+1) + in2'],
      [perCore[i]! + (perCore[i + 1] ?? 0), s.wramBytes, 'w_i + w_(i+1) per core'],
    ];
    for (const [need, limit, what] of checks) {
      if (need > limit) return verdict('small-map-pipeline', false, `at '${l.name}': ${what} = ${compareBytes(need, '>', limit)}`);
    }
  }
  return verdict('small-map-pipeline', true, `consecutive maps pipeline within SRAM ${kib(s.sramBytes)} and WRAM ${kib(s.wramBytes)}`);
}

/** Each tile buffer's bytes by tensor name, once per list of tile buffers. */
function tileBytesByName(unit: UnitShape, tile: Tile): ReadonlyMap<string, number> {
  const buffers = tileBuffers(unit, tile);
  let byName = bytesByName.get(buffers);
  if (byName === undefined) bytesByName.set(buffers, (byName = new Map(buffers.map((b) => [b.name, b.bytes]))));
  return byName;
}

const bytesByName = new WeakMap<readonly TileBuffer[], ReadonlyMap<string, number>>();

/** Halo overlap adds at most redundancyPercent to the input traffic (large-map mode only). */
export function redundancy(c: Candidate, s: FusionSettings): RuleVerdict {
  if (c.tile === undefined || c.tile.mode === 'small-map') return verdict('redundancy', true, 'whole maps: no halo overlap');
  const percent = redundancyPercent(c.unit, c.tile);
  const holds = percent <= s.rules.redundancyPercent;
  return verdict('redundancy', holds, `halo redundancy ${percent.toFixed(1)} % ${holds ? '<=' : '>'} ${s.rules.redundancyPercent} %`);
}

/** Sum of (dilated kernel - stride) over Conv/Pool layers, per axis [H, W]. */
export function strideSums(layers: readonly Layer[]): [number, number] {
  const sums: [number, number] = [0, 0];
  for (const l of layers) {
    if (!(l.base === 'Conv' || l.base?.endsWith('Pool'))) continue;
    sums[0] += (l.h.kernel - 1) * l.h.dilation + 1 - l.h.stride;
    sums[1] += (l.w.kernel - 1) * l.w.dilation + 1 - l.w.stride;
  }
  return sums;
}

/** Sum of (kernel - stride) per axis stays at most strideRedundancy, unless a whole multi-branch block is inside. */
export function strideRedundancy(c: Candidate, s: FusionSettings): RuleVerdict {
  const [h, w] = strideSums(c.unit.layers);
  const limit = s.rules.strideRedundancy;
  if (Math.max(h, w) <= limit) return verdict('stride-redundancy', true, `kernel - stride sums H ${h}, W ${w} <= ${limit}`);
  if (c.wholeBlock) return verdict('stride-redundancy', true, `kernel - stride sums H ${h}, W ${w} > ${limit}, allowed: a whole block is inside`);
  return verdict('stride-redundancy', false, `kernel - stride sums H ${h}, W ${w} > ${limit}`);
}

/** The unit's last layer writes its only tensor read after it. */
export function singleOutput(c: Candidate): RuleVerdict {
  const last = c.unit.layers[c.unit.layers.length - 1]!.output!.name;
  if (c.escaping.length === 1 && c.escaping[0] === last) return verdict('single-output', true, `only '${last}' leaves the unit`);
  const others = c.escaping.filter((n) => n !== last);
  return verdict('single-output', false, `${others.map((n) => `'${n}'`).join(', ') || 'nothing'} also leave${others.length === 1 ? 's' : ''} the unit`);
}

/** At least minMainLayers main layers (Conv, Pool, MatMul/Gemm, and their quantized forms). */
export function mainLayers(c: Candidate, s: FusionSettings): RuleVerdict {
  const count = c.unit.layers.filter((l) => l.cls === 'main').length;
  const holds = count >= s.rules.minMainLayers;
  return verdict('main-layers', holds, `${count} main layer(s) ${holds ? '>=' : '<'} ${s.rules.minMainLayers}`);
}

/** True when `b` reads the output of `a`, directly or through conversions (quantize, dequantize, cast) of the unit. */
function reads(b: Layer, a: Layer, layers: readonly Layer[]): boolean {
  return b.inputs.some((v) => {
    if (v.name === a.output?.name) return true;
    const producer = layers.find((l) => l.output?.name === v.name);
    return producer !== undefined && producer.cls === 'convert' && reads(producer, a, layers);
  });
}

/** A main layer feeds a main layer that feeds a non-main layer. */
export function mainMainNonMain(c: Candidate): RuleVerdict {
  const ls = c.unit.layers;
  for (const a of ls) {
    if (a.cls !== 'main') continue;
    for (const b of ls) {
      if (b.cls !== 'main' || !reads(b, a, ls)) continue;
      const d = ls.find((x) => x.cls !== 'main' && x.cls !== 'convert' && reads(x, b, ls));
      if (d !== undefined) return verdict('main-main-non-main', true, `${a.opType} -> ${b.opType} -> ${d.opType}`);
    }
  }
  return verdict('main-main-non-main', false, 'no main -> main -> non-main sequence');
}

/** A scalar layer (Add/Sub/Mul...) feeds a vector layer (activation, BatchNorm, Scale). */
export function scalarThenVector(c: Candidate): RuleVerdict {
  const ls = c.unit.layers;
  for (const a of ls) {
    if (layerClass(a.base) !== 'scalar') continue;
    const b = ls.find((x) => x.cls === 'vector' && reads(x, a, ls));
    if (b !== undefined) return verdict('scalar-then-vector', true, `${a.opType} -> ${b.opType}`);
  }
  return verdict('scalar-then-vector', false, 'no scalar layer followed by a vector layer');
}
