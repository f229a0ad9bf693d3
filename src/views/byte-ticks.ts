// Tick values and labels of a byte axis, round in the binary unit they are
// shown in (0, 100, 200 KiB; 0, 0.5, 1 MiB), as D3's own ticks are round only
// in bytes (97.7, 195, 293 KiB for steps of 100,000 B). Pure, for the heap
// diagram, the growth chart and their SVG exports.

import { precisionFixed, tickStep, ticks } from 'd3';
import { BYTE_UNITS as UNITS } from '../shared/format';

/** Most decimals a tick label shows before the axis moves to the next smaller unit. */
const MAX_DECIMALS = 2;

/** The ticks of a byte axis and the unit their labels are written in. */
export interface ByteTicks {
  readonly values: readonly number[]; // in bytes, ascending
  readonly unit: number; // bytes per unit: 1, 1024, 1024², ...
  readonly label: (bytes: number) => string; // "200 KiB", "1.5 MiB"
}

/**
 * About `count` ticks over the bytes [lo, hi]: a step of 1, 2 or 5 × 10^k in
 * the unit of the axis's largest value, or of a smaller unit when that step
 * would need more than two decimals or is not a whole number of bytes (a
 * deep zoom).
 */
export function byteTicks(lo: number, hi: number, count: number): ByteTicks {
  const top = Math.max(Math.abs(lo), Math.abs(hi));
  let power = 0;
  while (power < UNITS.length - 1 && top >= 1024 ** (power + 1)) power += 1;
  for (;;) {
    const unit = 1024 ** power;
    const values = ticks(lo / unit, hi / unit, count);
    const step = Math.abs(tickStep(lo / unit, hi / unit, count)); // also when only one tick falls in the range
    const decimals = power === 0 ? 0 : precisionFixed(step);
    // a step of 0.05 KiB is 51.2 B: ticks between bytes, whose labels also blur far from 0 (536870832.30 KiB)
    const stepBytes = step * unit;
    const wholeBytes = Math.abs(stepBytes - Math.round(stepBytes)) < 1e-3; // steps are far below 2^53 B, where a fraction shows
    if ((decimals <= MAX_DECIMALS && wholeBytes) || power === 0) {
      const name = UNITS[power]!;
      const bytes = values.filter((v) => power > 0 || Number.isInteger(v)).map((v) => v * unit);
      return { values: bytes, unit, label: (b) => `${b === 0 ? '0' : (b / unit).toFixed(decimals)} ${b === 0 ? 'B' : name}` };
    }
    power -= 1;
  }
}
