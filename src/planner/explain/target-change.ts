// A change to a target profile that a suggestion evaluates and the CLI applies
// (--order, --fusion, --compute-units, --sram, --dw-pw-cache,
// --scratch-placement, --spill, --weights, --io): the one place
// both read, so a suggestion's saving is what `plan` with its arguments gives.
// Depends only on the planner's target module.

import { InputError } from '../../shared/errors';
import type { IoOwner, OrderPolicy, ScratchPlacement, SpillMode, TargetProfile, WeightsPlacement } from '../targets/target';

/** Changes of a target's fields; absent fields are left as they are. */
export interface TargetChange {
  readonly order?: OrderPolicy; // planning.order
  readonly fusion?: boolean; // fusion.enabled
  readonly computeUnits?: 'off'; // every op on one generic unit (no M3 partition)
  readonly sramBytes?: number; // fusion.sramBytes
  readonly dwPwCacheBytes?: number; // fusion.dwPwCacheBytes (M5)
  readonly scratchPlacement?: ScratchPlacement; // scratch.placement: in the activations' free areas (M4) or planned with them
  readonly spill?: SpillMode; // planning.spill: spill along the memory map, or keep every activation in the first region
  readonly weights?: WeightsPlacement; // planning.weights: flash, a RAM region, or copied to one at start
  readonly io?: IoOwner; // planning.io: graph inputs and outputs in the arena or the application's own buffers
}

/** The execution-order policies, as --order takes them. */
export const ORDER_POLICIES: readonly OrderPolicy[] = ['file', 'depth-first', 'memory-aware'];
/** Where scratch goes, as --scratch-placement takes it. */
export const SCRATCH_PLACEMENTS: readonly ScratchPlacement[] = ['free-areas', 'with-activations'];

/** Whether activations spill along the memory map, as --spill takes it. */
export const SPILL_MODES: readonly SpillMode[] = ['on', 'off'];

/** Who owns graph inputs and outputs, as --io takes it. */
export const IO_OWNERS: readonly IoOwner[] = ['arena', 'application'];

/** Prefix of --weights for weights copied from flash to a region at start. */
const COPY_TO = 'copy-to:';

/** Where weights are, as --weights takes it: "flash", "REGION" or "copy-to:REGION". */
export function weightsText(w: WeightsPlacement): string {
  if (w.region === undefined) return 'flash';
  return w.copied ? `${COPY_TO}${w.region}` : w.region;
}

/** The placement `weightsText` wrote; the region is checked against a target when the change is applied. */
export function readWeightsText(text: string): WeightsPlacement | undefined {
  if (text === 'flash') return { copied: false };
  const copied = text.startsWith(COPY_TO);
  const region = copied ? text.slice(COPY_TO.length) : text;
  return region === '' || region.includes(':') ? undefined : { region, copied };
}

/** True when `change` changes nothing. */
export function isEmptyChange(change: TargetChange): boolean {
  return Object.values(change).every((v) => v === undefined);
}

/**
 * `target` with `change` applied (the changed fields keep the profile valid:
 * sizes are checked by readTargetChange). Throws InputError('bad-target') when the target
 * has no field to change (fusion or a dw-pw cache on a target without them).
 */
export function applyTargetChange(target: TargetProfile, change: TargetChange): TargetProfile {
  if (isEmptyChange(change)) return target;
  const { fusion } = target;
  const touchesFusion = change.fusion !== undefined || change.sramBytes !== undefined || change.dwPwCacheBytes !== undefined;
  if (touchesFusion && fusion === undefined) throw new InputError('bad-target', `target ${target.name} has no fusion settings to change`);
  if (change.dwPwCacheBytes !== undefined && fusion?.dwPwCacheBytes === undefined) throw new InputError('bad-target', `target ${target.name} has no dw-pw cache`);
  const weightsRegion = change.weights?.region;
  if (weightsRegion !== undefined && !target.regions.some((r) => r.name === weightsRegion)) {
    throw new InputError('bad-target', `target ${target.name} has no region "${weightsRegion}" for the weights (regions: ${target.regions.map((r) => r.name).join(', ')}; or flash)`);
  }
  if (weightsRegion !== undefined && target.planning.runtime === 'tflm' && weightsRegion === target.planning.activationRegion) {
    throw new InputError('bad-target', `target ${target.name}: TensorFlow Lite Micro reads the weights from the model's own buffer, never from its tensor arena "${weightsRegion}"; keep them in flash`);
  }
  const planning = {
    ...target.planning,
    ...(change.order !== undefined && { order: change.order }),
    ...(change.spill !== undefined && { spill: change.spill }),
    ...(change.weights !== undefined && { weights: change.weights }),
    ...(change.io !== undefined && { io: change.io }),
  };
  return {
    ...target,
    ...(change.computeUnits === 'off' && { computeUnits: [] }),
    ...(change.scratchPlacement !== undefined && { scratch: { ...target.scratch, placement: change.scratchPlacement } }),
    planning,
    ...(fusion !== undefined && {
      fusion: {
        ...fusion,
        ...(change.fusion !== undefined && { enabled: change.fusion }),
        ...(change.sramBytes !== undefined && { sramBytes: change.sramBytes }),
        ...(change.dwPwCacheBytes !== undefined && { dwPwCacheBytes: change.dwPwCacheBytes }),
      },
    }),
  };
}

/** The CLI arguments that apply `change` (and a strategy) to a `plan` command. */
export function changeArgs(change: TargetChange, strategy?: string): string[] {
  const args: string[] = [];
  if (strategy !== undefined) args.push('--strategy', strategy);
  if (change.order !== undefined) args.push('--order', change.order);
  if (change.fusion !== undefined) args.push('--fusion', change.fusion ? 'on' : 'off');
  if (change.computeUnits === 'off') args.push('--compute-units', 'off');
  if (change.sramBytes !== undefined) args.push('--sram', String(change.sramBytes));
  if (change.dwPwCacheBytes !== undefined) args.push('--dw-pw-cache', String(change.dwPwCacheBytes));
  if (change.scratchPlacement !== undefined) args.push('--scratch-placement', change.scratchPlacement);
  if (change.spill !== undefined) args.push('--spill', change.spill);
  if (change.weights !== undefined) args.push('--weights', weightsText(change.weights));
  if (change.io !== undefined) args.push('--io', change.io);
  return args;
}

/** Reads the target-change options of the CLI (values by option name); throws InputError('bad-argument'). */
export function readTargetChange(option: (name: string) => string | undefined): TargetChange {
  const order = choiceOption(option('--order'), '--order', ORDER_POLICIES);
  const fusion = onOff(option('--fusion'), '--fusion');
  const units = choiceOption(option('--compute-units'), '--compute-units', ['off'] as const);
  const sram = bytesOption(option('--sram'), '--sram');
  const cache = bytesOption(option('--dw-pw-cache'), '--dw-pw-cache');
  const placement = choiceOption(option('--scratch-placement'), '--scratch-placement', SCRATCH_PLACEMENTS);
  const spill = choiceOption(option('--spill'), '--spill', SPILL_MODES);
  const weightsArg = option('--weights');
  const weights = weightsArg === undefined ? undefined : readWeightsText(weightsArg);
  if (weightsArg !== undefined && weights === undefined) throw new InputError('bad-argument', `--weights takes flash, a region name or copy-to:REGION, got "${weightsArg}"`);
  const io = choiceOption(option('--io'), '--io', IO_OWNERS);
  return {
    ...(order !== undefined && { order }),
    ...(fusion !== undefined && { fusion }),
    ...(units === 'off' && { computeUnits: 'off' as const }),
    ...(sram !== undefined && { sramBytes: sram }),
    ...(cache !== undefined && { dwPwCacheBytes: cache }),
    ...(placement !== undefined && { scratchPlacement: placement }),
    ...(spill !== undefined && { spill }),
    ...(weights !== undefined && { weights }),
    ...(io !== undefined && { io }),
  };
}

/**
 * `value` when it is one of `choices`; throws InputError('bad-argument') naming the option and the choices otherwise,
 * in the one form every option with a fixed set of values uses: `--order must be one of file, depth-first, memory-aware, got "x"`.
 */
export function choiceOption<T extends string>(value: string | undefined, name: string, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const chosen = choices.find((c) => c === value);
  if (chosen === undefined) throw new InputError('bad-argument', `${name} must be ${choices.length === 1 ? '' : 'one of '}${choices.join(', ')}, got "${value}"`);
  return chosen;
}

function onOff(value: string | undefined, name: string): boolean | undefined {
  return value === undefined ? undefined : choiceOption(value, name, ['on', 'off'] as const) === 'on';
}

function bytesOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const bytes = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(bytes) || bytes <= 0) throw new InputError('bad-argument', `${name} takes a whole number of bytes above 0, got "${value}"`);
  return bytes;
}
