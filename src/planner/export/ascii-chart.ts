// A text picture of a plan, like TensorFlow Lite Micro's plan printout: per
// region, one line per step, the address range drawn left to right with one
// character per buffer live there, and the bytes live at that step. Depends
// only on src/shared, the plan's plain data and the bound's byte-range union.
//
// - Buffers that share bytes on purpose (one alias group) draw with one
//   character; groups take '0'-'9', 'a'-'z', 'A'-'Z' in order of first step,
//   cycling after 62.
// - A cell holds width/peak of the address range; a cell reached by several
//   groups shows '+', a free cell '.'. Every live buffer shows at least one cell.
// - The live bytes of a step are the union of its live buffers' byte ranges.

import { formatBytes, formatBytesExact } from '../../shared/format';
import { unionBytes } from '../problem/lower-bound';

const SYMBOLS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LEGEND_WIDTH = 100;

/** The buffer fields the chart reads. */
export interface ChartBuffer {
  readonly id: number;
  readonly name: string;
  readonly size: number;
  readonly start: number;
  readonly end: number;
  readonly offset: number;
  readonly region: string;
  readonly alias?: { readonly parent: number };
}

/** The plan fields the chart reads. */
export interface ChartPlan {
  readonly regions: readonly { readonly name: string; readonly peak: number; readonly lowerBound: number }[];
  readonly buffers: readonly ChartBuffer[];
  readonly steps?: readonly { readonly node: string }[];
}

/** Draws every region with a non-zero peak; `width` characters span the region's peak. */
export function asciiChart(plan: ChartPlan, width = 64): string {
  const root = aliasRoots(plan.buffers);
  const blocks: string[] = [];
  for (const region of plan.regions) {
    if (region.peak <= 0) continue;
    const buffers = plan.buffers.filter((b) => b.region === region.name && b.size > 0);
    blocks.push(regionChart(region, buffers, root, plan.steps, width));
  }
  return blocks.join('\n');
}

function regionChart(
  region: ChartPlan['regions'][number],
  buffers: readonly ChartBuffer[],
  root: ReadonlyMap<number, number>,
  steps: ChartPlan['steps'],
  width: number,
): string {
  const symbol = symbolsByGroup(buffers, root);
  const lastStep = buffers.reduce((max, b) => Math.max(max, b.end), 0);
  const pad = String(Math.max(0, lastStep - 1)).length;
  const cell = region.peak / width;
  const lines = [
    `region ${region.name}: peak ${formatBytesExact(region.peak)}, lower bound ${formatBytesExact(region.lowerBound)}, one character = ${formatBytes(Math.ceil(cell))}`,
  ];
  for (let t = 0; t < lastStep; t++) {
    const live = buffers.filter((b) => b.start <= t && t < b.end);
    const row = new Array<string>(width).fill('.');
    for (const b of live) {
      const ch = symbol.get(root.get(b.id)!)!;
      const from = Math.min(width - 1, Math.floor(b.offset / cell));
      const to = Math.max(from + 1, Math.floor((b.offset + b.size) / cell));
      for (let c = from; c < Math.min(to, width); c++) row[c] = row[c] === '.' || row[c] === ch ? ch : '+';
    }
    const op = steps?.[t]?.node;
    lines.push(`${String(t).padStart(pad)}: ${row.join('')} ${formatBytes(unionBytes(live.map((b) => [b.offset, b.offset + b.size] as const)))}${op === undefined ? '' : `  ${op}`}`);
  }
  lines.push(...legend(buffers, root, symbol));
  return lines.join('\n') + '\n';
}

/** The alias group of every buffer, as the id of its root. */
function aliasRoots(buffers: readonly ChartBuffer[]): Map<number, number> {
  const parent = new Map(buffers.map((b) => [b.id, b.alias?.parent]));
  const root = new Map<number, number>();
  for (const b of buffers) {
    let r = b.id;
    for (let guard = 0; parent.get(r) !== undefined && guard < buffers.length; guard++) r = parent.get(r)!;
    root.set(b.id, r);
  }
  return root;
}

function symbolsByGroup(buffers: readonly ChartBuffer[], root: ReadonlyMap<number, number>): Map<number, string> {
  const firstStep = new Map<number, number>();
  for (const b of buffers) {
    const r = root.get(b.id)!;
    firstStep.set(r, Math.min(firstStep.get(r) ?? Infinity, b.start));
  }
  const groups = [...firstStep.keys()].sort((a, b) => firstStep.get(a)! - firstStep.get(b)! || a - b);
  return new Map(groups.map((g, i) => [g, SYMBOLS[i % SYMBOLS.length]!]));
}

function legend(buffers: readonly ChartBuffer[], root: ReadonlyMap<number, number>, symbol: ReadonlyMap<number, string>): string[] {
  const names = new Map<number, string[]>();
  for (const b of buffers) {
    const r = root.get(b.id)!;
    names.set(r, [...(names.get(r) ?? []), b.name]);
  }
  const entries = [...symbol].map(([group, ch]) => {
    const list = names.get(group)!;
    return `${ch} ${list[0]}${list.length > 1 ? ` (+${list.length - 1} sharing)` : ''}`;
  });
  const lines: string[] = [];
  let line = 'legend:';
  for (const entry of entries) {
    if (line.length + entry.length + 2 > LEGEND_WIDTH) {
      lines.push(line);
      line = '       ';
    }
    line += `  ${entry}`;
  }
  lines.push(line);
  return lines;
}
