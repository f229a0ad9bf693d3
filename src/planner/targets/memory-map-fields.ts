// The memory-map fields of a target's planning settings: `spill` ('on' |
// 'off'; absent means 'on' and is left absent), `memoryMap` (region names activations may take,
// fastest first) and `pins` (rules that keep buffers in one region). Read by
// parse.ts; depends only on the target types and the field reader.

import { childPath, fail, Fields } from './fields';
import type { MemoryRegion, PlanningSettings, RegionPin } from './target';

/** Pins and map entries listed at most. */
const MAX_LISTED = 64;

/** The memory-map fields of `planning`, validated against the target's regions. */
export function readMemoryMapFields(f: Fields, regions: readonly MemoryRegion[]): Pick<PlanningSettings, 'spill' | 'memoryMap' | 'pins'> {
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
  };
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
