// The memory-map fields of a target's planning settings: `spill` ('on' |
// 'off'; absent means 'on' and is left absent), `memoryMap` (region names activations may take,
// fastest first), `pins` (rules that keep buffers in one region), `weights`
// (where weights live) and `io` (who holds graph inputs and outputs); each
// absent means today's plan and is left absent. Read by parse.ts; depends
// only on the target types and the field reader.

import { childPath, fail, Fields } from './fields';
import type { IoOwner, MemoryRegion, PlanningSettings, RegionPin, WeightsPlacement } from './target';

/** Pins and map entries listed at most. */
const MAX_LISTED = 64;

/** The memory-map fields of `planning`, validated against the target's regions. */
export function readMemoryMapFields(f: Fields, regions: readonly MemoryRegion[]): Pick<PlanningSettings, 'spill' | 'memoryMap' | 'pins' | 'weights' | 'io'> {
  const names = regions.map((r) => r.name);
  const spill = f.has('spill') ? f.oneOf('spill', ['on', 'off'], 'on') : undefined; // absent means 'on'
  const map = f.has('memoryMap') ? f.array('memoryMap') : undefined;
  if (map !== undefined) {
    if (map.length === 0 || map.length > MAX_LISTED) fail(f.at('memoryMap'), `must list 1 to ${MAX_LISTED} region names`, map);
    map.forEach((name, i) => {
      if (typeof name !== 'string' || !names.includes(name)) fail(childPath(f.at('memoryMap'), i), `must name a region (${names.join(', ')})`, name);
      if (map.indexOf(name) !== i) fail(childPath(f.at('memoryMap'), i), 'must not repeat a region', name);
    });
  }
  const pins = f.has('pins') ? f.array('pins') : undefined;
  if (pins !== undefined && pins.length > MAX_LISTED) fail(f.at('pins'), `must list at most ${MAX_LISTED} rules`, pins.length);
  return {
    ...(spill !== undefined && { spill }),
    ...(map !== undefined && { memoryMap: map as string[] }),
    ...(pins !== undefined && { pins: pins.map((p, i) => readPin(p, childPath(f.at('pins'), i), names)) }),
    ...(f.has('weights') && { weights: readWeights(f.raw('weights'), f.at('weights'), names) }),
    ...(f.has('io') && { io: f.oneOf('io', ['arena', 'application'], 'arena') as IoOwner }),
  };
}

/** `{ "region"?: NAME, "copied"?: boolean }`: no region is flash; `copied` needs a region to copy to. */
function readWeights(value: unknown, path: string, names: readonly string[]): WeightsPlacement {
  const f = Fields.of(value, path, ['region', 'copied']);
  const region = f.optionalString('region');
  if (region !== undefined && !names.includes(region)) fail(f.at('region'), `must name a region (${names.join(', ')}), or be left out for flash`, region);
  const copied = f.boolean('copied', false);
  if (copied && region === undefined) fail(f.at('copied'), 'needs a region to copy the weights to', copied);
  return { ...(region !== undefined && { region }), copied };
}

function readPin(value: unknown, path: string, names: readonly string[]): RegionPin {
  const f = Fields.of(value, path, ['opType', 'tensor', 'region']);
  const region = f.string('region');
  if (!names.includes(region)) fail(f.at('region'), `must name a region (${names.join(', ')})`, region);
  const opType = f.optionalString('opType');
  const tensor = f.optionalString('tensor');
  if ((opType === undefined) === (tensor === undefined)) fail(path, 'must give exactly one of opType and tensor', value);
  return { region, ...(opType !== undefined && { opType }), ...(tensor !== undefined && { tensor }) };
}
