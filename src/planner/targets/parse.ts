// Reads a target profile document section by section, validating every field
// and filling defaults. Depends only on src/shared and the planner.

import { InputError } from '../../shared/errors';
import { previewJson } from '../../shared/json-preview';
import { DTYPE_NAMES, dtypeBits } from '../compute-units/dtypes';
import { OP_KINDS, type OpKind } from '../problem/op-kinds';
import { constantFormulaError, parseScratchFormula, type Formula } from '../scratch/formula';
import { shortName } from '../../shared/short-name';
import { STRATEGY_NAMES } from '../strategies/strategy-names';
import type {
  ComputeUnit,
  FusionSettings,
  MemoryRegion,
  PlanningSettings,
  ScratchRule,
  ScratchSettings,
  TargetProfile,
  TfuRules,
  UnitConstraints,
  WeightsHome,
} from './target';
import { childPath, fail, Fields } from './fields';
import { readMemoryMapFields } from './memory-map-fields';
import { memoryMapOf } from './target';
import { jsonErrorAt } from './json';

const BYTES = { min: 0, integer: true } as const;
const POSITIVE = { min: 1, integer: true } as const;

/** See `parseTarget`. */
function readTarget(json: unknown): TargetProfile {
  const doc = Fields.of(json, '', ['name', 'description', 'regions', 'computeUnits', 'fusion', 'scratch', 'planning']);
  const regions = bounded(doc.array('regions'), MAX_LISTED, 'regions', 'regions').map((r, i) => readRegion(r, childPath('regions', i)));
  if (regions.length === 0) fail('regions', 'must list at least one memory region', []);
  regions.forEach((region, i) => {
    const first = regions.findIndex((r) => r.name === region.name);
    if (first !== i) fail(`regions[${i}].name`, `must be unique (regions[${first}] has it too)`, region.name);
    // plan --csv writes a file per region, named by it: "SRAM" and "sram" would be one file on a case-insensitive disk
    const folded = regions.findIndex((r) => r.name.toLowerCase() === region.name.toLowerCase());
    if (folded !== i) fail(`regions[${i}].name`, `must differ from regions[${folded}].name ${previewJson(regions[folded]!.name)} other than by case (each region's --csv file is named by it)`, region.name);
  });
  return {
    name: doc.string('name', 'custom'),
    description: doc.has('description') ? doc.string('description') : '',
    regions,
    computeUnits: readComputeUnits(bounded(doc.array('computeUnits', []), MAX_LISTED, 'computeUnits', 'compute units')),
    ...(doc.has('fusion') && { fusion: readFusion(doc.raw('fusion'), 'fusion', regions) }),
    scratch: readScratch(doc.raw('scratch') ?? {}, 'scratch'),
    planning: readPlanning(doc.raw('planning') ?? {}, 'planning', regions),
  };
}

function readRegion(value: unknown, path: string): MemoryRegion {
  const f = Fields.of(value, path, ['name', 'sizeLimit', 'alignment', 'fast']);
  const sizeLimit = f.optionalNumber('sizeLimit', POSITIVE);
  return {
    name: f.string('name'),
    ...(sizeLimit !== undefined && { sizeLimit }),
    alignment: f.number('alignment', { powerOfTwo: true }, 1),
    fast: f.boolean('fast', false),
  };
}

function readComputeUnits(list: readonly unknown[]): ComputeUnit[] {
  const units = list.map((u, i) => readComputeUnit(u, childPath('computeUnits', i)));
  units.forEach((unit, i) => {
    const first = units.findIndex((u) => u.name === unit.name);
    if (first !== i) fail(`computeUnits[${i}].name`, `must be unique (computeUnits[${first}] has it too)`, unit.name);
  });
  return units;
}

function readComputeUnit(value: unknown, path: string): ComputeUnit {
  const f = Fields.of(value, path, ['name', 'opTypes', 'dtype', 'alignment', 'constraints']);
  const opTypes = f.array('opTypes').map((op, i) => {
    if (typeof op !== 'string' || op === '') fail(childPath(f.at('opTypes'), i), 'must be an op type name', op);
    return op;
  });
  if (opTypes.length === 0) fail(f.at('opTypes'), "must list at least one op type ('*' for every op)", []);
  const dtype = Fields.of(f.raw('dtype') ?? {}, f.at('dtype'), ['activations', 'fakeQuantization']);
  const activations = dtype.string('activations', 'model');
  if (activations !== 'model' && dtypeBits(activations) === undefined) {
    fail(dtype.at('activations'), `must be "model" or a data type name (${DTYPE_NAMES.join(', ')})`, activations);
  }
  return {
    name: f.string('name'),
    opTypes,
    dtype: { activations, fakeQuantization: dtype.boolean('fakeQuantization', false) },
    alignment: f.number('alignment', { powerOfTwo: true }, 1),
    ...(f.has('constraints') && { constraints: readUnitConstraints(f.raw('constraints'), f.at('constraints')) }),
  };
}

function readUnitConstraints(value: unknown, path: string): UnitConstraints {
  const f = Fields.of(value, path, ['maxConvKernel']);
  const maxConvKernel = f.optionalNumber('maxConvKernel', POSITIVE);
  return { ...(maxConvKernel !== undefined && { maxConvKernel }) };
}

function readFusion(value: unknown, path: string, regions: readonly MemoryRegion[]): FusionSettings {
  const f = Fields.of(value, path, [
    'enabled', 'templateUnits', 'onChipRegion', 'sramBytes', 'nramBytes', 'wramBytes', 'coresPerCluster', 'rules', 'dwPwCacheBytes',
  ]);
  const cache = f.optionalNumber('dwPwCacheBytes', POSITIVE);
  const onChipRegion = f.optionalString('onChipRegion');
  if (onChipRegion !== undefined && !regions.some((r) => r.name === onChipRegion)) {
    fail(f.at('onChipRegion'), `must name a region (regions: ${regions.map((r) => r.name).join(', ')})`, onChipRegion);
  }
  return {
    enabled: f.boolean('enabled', true),
    templateUnits: f.boolean('templateUnits', true),
    ...(onChipRegion !== undefined && { onChipRegion }),
    sramBytes: f.number('sramBytes', POSITIVE),
    nramBytes: f.number('nramBytes', BYTES),
    wramBytes: f.number('wramBytes', BYTES),
    coresPerCluster: f.number('coresPerCluster', POSITIVE, 1),
    rules: readTfuRules(f.raw('rules') ?? {}, f.at('rules')),
    ...(cache !== undefined && { dwPwCacheBytes: cache }),
  };
}

function readTfuRules(value: unknown, path: string): TfuRules {
  const f = Fields.of(value, path, [
    'start', 'direction', 'preferBlocks', 'singleOutput', 'minMainLayers', 'mainMainNonMain',
    'scalarThenVector', 'skipSharedWeights', 'redundancyPercent', 'strideRedundancy', 'maxSmallMaps', 'split',
  ]);
  return {
    start: f.oneOf('start', ['first-unfused', 'first-conv-pool'], 'first-unfused'),
    direction: f.oneOf('direction', ['forward', 'backward-then-forward'], 'forward'),
    preferBlocks: f.boolean('preferBlocks', true),
    singleOutput: f.boolean('singleOutput', true),
    minMainLayers: f.number('minMainLayers', BYTES, 2),
    mainMainNonMain: f.boolean('mainMainNonMain', false),
    scalarThenVector: f.boolean('scalarThenVector', false),
    skipSharedWeights: f.boolean('skipSharedWeights', true),
    redundancyPercent: f.number('redundancyPercent', { min: 0 }, 100),
    strideRedundancy: f.number('strideRedundancy', { min: 0 }, 4),
    maxSmallMaps: f.number('maxSmallMaps', POSITIVE, 8),
    split: f.oneOf('split', ['large-to-small', 'small-to-large'], 'large-to-small'),
  };
}

/** Scratch rules a profile may hold, in all and per op type: each becomes a buffer per matching node. */
const MAX_SCRATCH_RULES = 256;
const MAX_RULES_PER_OP = 16;
/** Regions and compute units a profile may list. */
const MAX_LISTED = 64;

/** `list`, refused when longer than `max` before anything is read from it. */
function bounded<T>(list: readonly T[], max: number, path: string, what: string): readonly T[] {
  if (list.length > max) fail(path, `may list at most ${max} ${what}`, `${list.length} of them`);
  return list;
}

function readScratch(value: unknown, path: string): ScratchSettings {
  const f = Fields.of(value, path, ['rules', 'placement', 'side', 'grow', 'retries', 'criterion']);
  const rules = bounded(f.array('rules', []), MAX_SCRATCH_RULES, f.at('rules'), 'scratch rules').map((r, i) => readScratchRule(r, childPath(f.at('rules'), i)));
  const perOp = new Map<string, number>();
  for (const rule of rules) perOp.set(rule.opType, (perOp.get(rule.opType) ?? 0) + 1);
  for (const [opType, count] of perOp) {
    if (count > MAX_RULES_PER_OP) fail(f.at('rules'), `may give an op type at most ${MAX_RULES_PER_OP} scratch buffers`, `${count} for ${opType}`);
  }
  return {
    rules,
    placement: f.oneOf('placement', ['free-areas', 'with-activations'], 'free-areas'),
    side: f.oneOf('side', ['bottom', 'top'], 'bottom'),
    grow: f.oneOf('grow', ['top', 'bottom'], 'top'),
    retries: f.boolean('retries', false),
    criterion: f.oneOf('criterion', ['no-growth', 'smallest-heap', 'least-fragmentation', 'most-fast'], 'smallest-heap'),
  };
}

function readScratchRule(value: unknown, path: string): ScratchRule {
  const f = Fields.of(value, path, ['opType', 'name', 'bytes', 'formula', 'variable', 'latencyCritical', 'overlay']);
  if (f.has('bytes') === f.has('formula')) {
    throw new InputError('bad-target', `${path} must give exactly one of "bytes" and "formula"`);
  }
  const formula = f.optionalString('formula');
  if (formula !== undefined) {
    let parsed: Formula;
    try {
      parsed = parseScratchFormula(formula);
    } catch (error) {
      if (error instanceof InputError) throw new InputError('bad-target', `${f.at('formula')}: ${error.message}`);
      throw error;
    }
    // a formula that reads no tensor gives the same for every op: one that fails there can never size a scratch buffer
    const never = constantFormulaError(parsed);
    if (never !== undefined) throw new InputError('bad-target', `${f.at('formula')}: "${shortName(formula)}" can never give a size: ${never}`);
  }
  const bytes = f.optionalNumber('bytes', BYTES);
  return {
    opType: f.string('opType'),
    name: f.string('name', 'scratch'),
    ...(bytes !== undefined && { bytes }),
    ...(formula !== undefined && { formula }),
    variable: f.boolean('variable', false),
    latencyCritical: f.boolean('latencyCritical', false),
    overlay: f.boolean('overlay', false),
  };
}

function readPlanning(value: unknown, path: string, regions: readonly MemoryRegion[]): PlanningSettings {
  const f = Fields.of(value, path, ['strategy', 'order', 'graphIo', 'activationRegion', 'opKinds', 'runtime', 'spill', 'memoryMap', 'pins', 'weights', 'io', 'weightsHome']);
  const strategy = f.string('strategy', 'best'); // as on every preset
  if (!(STRATEGY_NAMES as readonly string[]).includes(strategy)) {
    fail(f.at('strategy'), `must be one of ${STRATEGY_NAMES.join(', ')}`, strategy);
  }
  const activationRegion = f.string('activationRegion', regions[0]!.name);
  if (!regions.some((r) => r.name === activationRegion)) {
    fail(f.at('activationRegion'), `must name a region (${regions.map((r) => r.name).join(', ')})`, activationRegion);
  }
  const planning: PlanningSettings = {
    strategy,
    order: f.oneOf('order', ['file', 'depth-first', 'memory-aware'], 'file'),
    graphIo: f.oneOf('graphIo', ['whole-run', 'as-used'], 'whole-run'),
    activationRegion,
    opKinds: f.record('opKinds', readOpKind),
    ...(f.has('runtime') && f.oneOf('runtime', ['tflm', 'none'], 'none') === 'tflm' && { runtime: 'tflm' as const }),
    ...readMemoryMapFields(f, regions),
    ...(f.has('weightsHome') && { weightsHome: f.oneOf('weightsHome', ['flash', 'runtime'], 'flash') as WeightsHome }),
  };
  // a pin acts in the spill, along the memory map: one to a region outside it put a buffer where no spill counts its limit
  const map = memoryMapOf({ regions, planning }).map((r) => r.name);
  (planning.pins ?? []).forEach((pin, i) => {
    if (!map.includes(pin.region)) fail(childPath(childPath(f.at('pins'), i), 'region'), `must name a region of the memory map (${map.join(', ')})`, pin.region);
  });
  return planning;
}

function readOpKind(value: unknown, path: string): OpKind {
  if (typeof value !== 'string' || !(OP_KINDS as readonly string[]).includes(value)) {
    fail(path, `must be one of ${OP_KINDS.map((k) => `"${k}"`).join(', ')}`, value);
  }
  return value as OpKind;
}

/**
 * Validates a target profile document (already parsed JSON) and fills the
 * defaults of optional fields. Throws InputError('bad-target') naming the
 * field path and the offending value, e.g.
 * `regions[1].alignment must be a power of two, got 48`.
 */
export function parseTarget(json: unknown): TargetProfile {
  return readTarget(json);
}

/**
 * Parses a target profile from JSON text; `source` names it in errors (a file
 * name). Bad JSON names the line, column and position of the first error.
 */
export function parseTargetText(text: string, source: string): TargetProfile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const where = jsonErrorAt(text);
    const why =
      where === undefined
        ? String(error instanceof Error ? error.message : error).replace(/\s+/g, ' ')
        : `${where.reason} at line ${where.line}, column ${where.column} (position ${where.position})`;
    throw new InputError('bad-target', `${source} is not valid JSON: ${why}`);
  }
  try {
    return parseTarget(json);
  } catch (error) {
    if (error instanceof InputError) throw new InputError('bad-target', `${source}: ${error.message}`);
    throw error;
  }
}
