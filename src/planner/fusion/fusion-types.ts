// The fusion units the planner reports (METHODS.md M2 'tfu' and M5 'dw-pw'),
// as plain data for the plan, the CLI and the views. Depends only on the fusion modules' types.

import type { MapMode } from './feature-map';
import type { RuleVerdict } from './tfu/verdict';

/** A buffer of a unit's on-chip plan (a tile in SRAM, or the M5 cache). */
export interface OnChipBuffer {
  readonly name: string;
  readonly offset: number; // bytes from the start of the on-chip region
  readonly size: number;
  readonly firstStep: number;
  readonly lastStep: number; // inclusive
}

/** The on-chip tile of a template fusion unit. */
export interface UnitTile {
  readonly mode: MapMode;
  readonly maps: number; // N per tile
  readonly rows: number; // output rows per tile
  readonly cols: number; // output columns per tile
  readonly tiles: number; // tiles that cover the output
  readonly redundancyPercent: number; // halo traffic over unsplit input traffic
}

/** The M5 cache window of a depthwise + pointwise unit. */
export interface CacheWindow {
  readonly capacity: number; // configured bytes
  readonly rowBytes: number; // one row of the depthwise result (W × C × element)
  readonly rows: number; // rows the window holds
  readonly bytes: number; // rows × rowBytes, at most the capacity
  readonly passes: number; // windows slid over the output
}

/** Bytes of one unit input loaded from DRAM over all its tiles or windows. */
export interface InputLoad {
  readonly name: string;
  readonly bytes: number;
}

/** A fusion unit before its effect on the plan is known. */
export interface FusionUnitCore {
  readonly id: number;
  readonly kind: 'tfu' | 'dw-pw';
  readonly nodes: readonly string[];
  readonly nodeIndices: readonly number[];
  readonly firstStep: number;
  readonly lastStep: number; // inclusive
  readonly inputs: readonly string[]; // tensors read from DRAM
  readonly inputLoads: readonly InputLoad[]; // bytes each input costs to load, halos included
  readonly output: string; // the tensor written to DRAM
  readonly internal: readonly string[]; // tensors that stay on chip
  readonly tile?: UnitTile; // tfu
  readonly cache?: CacheWindow; // dw-pw
  readonly onChip: { readonly sram: number; readonly nram: number; readonly wram: number; readonly cache: number };
  readonly onChipBuffers: readonly OnChipBuffer[];
  readonly rules: readonly RuleVerdict[]; // the rules evaluated on the final unit (all hold)
  readonly boundary: readonly string[]; // why it starts and ends where it does
}



/** A fusion unit as the plan reports it (`plan --json`, the views); the first four fields are the ones DESIGN.md fixes. */
export interface FusionUnitRecord {
  readonly kind: 'tfu' | 'dw-pw';
  readonly nodes: readonly string[]; // in execution order
  readonly onChipBytes: number; // SRAM tile plan peak (tfu) or cache window bytes (dw-pw)
  readonly trafficSaved: number; // DRAM bytes: traffic.before - traffic.after
  readonly id: number;
  readonly name: string; // 'tfu0', 'dwpw3': the graph draws the unit as a group of this name
  readonly firstStep: number;
  readonly lastStep: number; // inclusive
  readonly mode: MapMode | 'cache-window';
  readonly tile?: UnitTile; // tfu
  readonly cache?: CacheWindow; // dw-pw
  readonly onChip: { readonly sram: number; readonly nram: number; readonly wram: number };
  readonly region: string; // the region its on-chip buffers are planned in
  readonly inputs: readonly string[]; // tensors it reads from DRAM
  readonly output: string; // the tensor it writes to DRAM
  readonly internal: readonly string[]; // tensors that never reach DRAM
  readonly traffic: { readonly before: number; readonly after: number }; // DRAM bytes its layers move
  readonly rules: readonly string[]; // why it starts and ends where it does, then every rule that holds on it
}

/** Why one layer is or is not in a fusion unit. */
export interface FusionExplanation {
  readonly node: string;
  readonly unit?: string; // the unit's name
  readonly reason: string;
}
