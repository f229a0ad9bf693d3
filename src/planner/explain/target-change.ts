// A change to a target profile that a suggestion evaluates and the CLI applies
// (--order, --fusion, --compute-units, --sram, --dw-pw-cache,
// --scratch-placement, --spill): the one place
// both read, so a suggestion's saving is what `plan` with its arguments gives.
// Depends only on the planner's target module.

import { InputError } from '../../shared/errors';
import type { OrderPolicy, ScratchPlacement, SpillMode, TargetProfile } from '../targets/target';

/** Changes of a target's fields; absent fields are left as they are. */
export interface TargetChange {
  readonly order?: OrderPolicy; // planning.order
  readonly fusion?: boolean; // fusion.enabled
  readonly computeUnits?: 'off'; // every op on one generic unit (no M3 partition)
  readonly sramBytes?: number; // fusion.sramBytes
  readonly dwPwCacheBytes?: number; // fusion.dwPwCacheBytes (M5)
  readonly scratchPlacement?: ScratchPlacement; // scratch.placement: in the activations' free areas (M4) or planned with them
  readonly spill?: SpillMode; // planning.spill: spill along the memory map, or keep every activation in the first region
}

/** The execution-order policies, as --order takes them. */
export const ORDER_POLICIES: readonly OrderPolicy[] = ['file', 'depth-first', 'memory-aware'];
/** Where scratch goes, as --scratch-placement takes it. */
export const SCRATCH_PLACEMENTS: readonly ScratchPlacement[] = ['free-areas', 'with-activations'];

/** Whether activations spill along the memory map, as --spill takes it. */
export const SPILL_MODES: readonly SpillMode[] = ['on', 'off'];

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
  return {
    ...target,
    ...(change.computeUnits === 'off' && { computeUnits: [] }),
    ...(change.scratchPlacement !== undefined && { scratch: { ...target.scratch, placement: change.scratchPlacement } }),
    planning: { ...target.planning, ...(change.order !== undefined && { order: change.order }), ...(change.spill !== undefined && { spill: change.spill }) },
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
  return args;
}

/** Reads the target-change options of the CLI (values by option name); throws InputError('bad-argument'). */
export function readTargetChange(option: (name: string) => string | undefined): TargetChange {
  const order = choiceOption(option('--order'), '--order', ORDER_POLICIES);
  const fusion = onOff(option('--fusion'), '--fusion');
  const units = option('--compute-units');
  if (units !== undefined && units !== 'off') throw new InputError('bad-argument', `--compute-units takes "off", got "${units}"`);
  const sram = bytesOption(option('--sram'), '--sram');
  const cache = bytesOption(option('--dw-pw-cache'), '--dw-pw-cache');
  const placement = choiceOption(option('--scratch-placement'), '--scratch-placement', SCRATCH_PLACEMENTS);
  const spill = choiceOption(option('--spill'), '--spill', SPILL_MODES);
  return {
    ...(order !== undefined && { order }),
    ...(fusion !== undefined && { fusion }),
    ...(units === 'off' && { computeUnits: 'off' as const }),
    ...(sram !== undefined && { sramBytes: sram }),
    ...(cache !== undefined && { dwPwCacheBytes: cache }),
    ...(placement !== undefined && { scratchPlacement: placement }),
    ...(spill !== undefined && { spill }),
  };
}

/** `value` when it is one of `choices`; throws InputError('bad-argument') naming the option and the choices otherwise. */
function choiceOption<T extends string>(value: string | undefined, name: string, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const chosen = choices.find((c) => c === value);
  if (chosen === undefined) throw new InputError('bad-argument', `${name} must be one of ${choices.join(', ')}, got "${value}"`);
  return chosen;
}

function onOff(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new InputError('bad-argument', `${name} takes on or off, got "${value}"`);
  return value === 'on';
}

function bytesOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const bytes = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(bytes) || bytes <= 0) throw new InputError('bad-argument', `${name} takes a whole number of bytes above 0, got "${value}"`);
  return bytes;
}
