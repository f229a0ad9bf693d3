// Types shared by the M2 and M5 rules and their checker: rule names, verdicts, the
// candidate unit the rules look at, and the per-core weight share. Depends only
// on src/shared and the planner's fusion modules.

import { formatBytes } from '../../../shared/format';
import type { Tile } from '../feature-map';
import { weightChannelDim, type Layer } from '../layer-geometry';
import { shapeAxis } from '../layout';
import type { UnitShape } from '../unit-ranges';

/** Names of the M2 rules. */
export type RuleName =
  | 'tileable' | 'shared-weights' | 'wram' | 'sram' | 'nram' | 'small-map-pipeline' | 'small-maps'
  | 'redundancy' | 'stride-redundancy' | 'single-output' | 'map-output' | 'main-layers' | 'main-main-non-main' | 'scalar-then-vector'
  | 'depthwise-module' | 'pointwise-reader' | 'consecutive' | 'cache-window';

/** The verdict of one rule on one candidate. */
export interface RuleVerdict {
  readonly rule: RuleName;
  readonly holds: boolean;
  readonly detail: string;
}

/** A candidate unit with what the rules need to know about it. */
export interface Candidate {
  readonly unit: UnitShape;
  readonly tile: Tile | undefined; // undefined: no tile fits
  readonly escaping: readonly string[]; // tensors of the unit read after it (or graph outputs)
  readonly wholeBlock: boolean; // it contains a whole multi-branch block
  readonly weightReaders: (name: string) => number; // nodes reading a weight tensor
}

/** A verdict record. */
export function verdict(rule: RuleName, holds: boolean, detail: string): RuleVerdict {
  return { rule, holds, detail };
}

/** Bytes of one layer's weights on one core when split by output channel over `cores` (each weight along its channel dim). */
export function layerWeightsPerCore(layer: Layer, cores: number): number {
  const outC = layer.output?.shape?.[shapeAxis(layer.layout, 1)];
  return layer.weights.reduce((sum, w) => {
    const bytes = w.bytes ?? 0;
    const lead = w.shape?.[weightChannelDim(layer, w)];
    return sum + (lead !== undefined && lead === outC && lead > 0 ? Math.ceil(lead / cores) * (bytes / lead) : bytes);
  }, 0);
}

/** `a op b` in readable sizes, with exact bytes when the rounded sizes read the same. */
export function compareBytes(a: number, op: string, b: number): string {
  const [x, y] = [formatBytes(a), formatBytes(b)];
  return x === y && a !== b ? `${x} (${a} B) ${op} ${y} (${b} B)` : `${x} ${op} ${y}`;
}
