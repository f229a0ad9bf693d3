// A buffer's facts in words for Details and the heap's export: where it sits
// (an offset that cannot read as a coordinate), the bytes it reserves against
// its data, why it spilled from the region it wanted, and the scratch rule
// that sized it. Plain functions over a plan; no DOM.

import type { ModelPlan, PlannedBuffer } from '../planner/plan';
import { formatBytes, formatCount } from '../shared/format';

/** "offset 519,168 B (507 KiB)"; "offset 0" and "offset 512 B" where the rounded form would add nothing. */
export function offsetText(offset: number): string {
  if (offset === 0) return 'offset 0';
  const exact = `${formatCount(offset)} B`;
  return offset < 1024 ? `offset ${exact}` : `offset ${exact} (${formatBytes(offset)})`;
}

/** "64 B (8 B of data, 56 B of alignment padding)"; just the bytes when the buffer reserves no more than its data. */
export function reservedText(buffer: Pick<PlannedBuffer, 'size' | 'bytes'>): string {
  const padding = buffer.size - buffer.bytes;
  if (padding <= 0 || buffer.bytes === 0) return formatBytes(buffer.size);
  return `${formatBytes(buffer.size)} (${formatCount(buffer.bytes)} B of data, ${formatCount(padding)} B of alignment padding)`;
}

/** " + 64 B of alignment padding" for a buffer reserved above its data; empty otherwise. */
export function paddingWords(buffer: Pick<PlannedBuffer, 'size' | 'bytes'>): string {
  const padding = buffer.size - buffer.bytes;
  return padding > 0 && buffer.bytes > 0 ? ` + ${formatCount(padding)} B of alignment padding` : '';
}

/**
 * "1,968 B reserved: its 1,960 B rounded up to the region's alignment (8 B of
 * padding)" for a buffer reserved above its data, where its size shown
 * differs from the tensor's (the Tensors table, the graph edge); undefined otherwise.
 */
export function paddedSizeTitle(buffer: Pick<PlannedBuffer, 'size' | 'bytes'>): string | undefined {
  const padding = buffer.size - buffer.bytes;
  if (padding <= 0 || buffer.bytes === 0) return undefined;
  return `${formatCount(buffer.size)} B reserved: its ${formatCount(buffer.bytes)} B rounded up to the region's alignment (${formatCount(padding)} B of padding)`;
}

/**
 * "spilled from sram: <the plan's reason>" for a buffer placed below the region
 * it wanted; the plan explains its largest spills only, so the others say that.
 * Undefined when the buffer did not spill.
 */
export function spillText(plan: Pick<ModelPlan, 'explanation'>, buffer: PlannedBuffer): string | undefined {
  if (buffer.wanted === undefined) return undefined;
  const record = (plan.explanation?.spilled ?? []).find((s) => s.id === buffer.id || s.id === buffer.alias?.parent);
  const head = `spilled from ${buffer.wanted}, the region it wanted, to ${buffer.region}`;
  return record === undefined ? `${head} (the plan explains its largest spills only)` : `${head}: ${record.reason}`;
}

/**
 * The scratch rule that sized a scratch buffer: "im2col rule: 1.27 MiB by its
 * formula", and for a variable-size one the minimum the rule asks and, when
 * placement granted more, how far it grew. Undefined for other buffers.
 */
export function scratchRuleText(buffer: PlannedBuffer): string | undefined {
  if (buffer.kind !== 'scratch') return undefined;
  const s = buffer.scratch;
  if (s === undefined) return 'scratch of its op while it runs (this plan does not record the rule that sized it)';
  const by = s.formula === undefined ? 'fixed by the rule' : "by its formula of the op's shapes";
  if (!s.variable) return `${s.rule} rule: ${formatBytes(s.bytes)} ${by}`;
  const asked = `${s.rule} rule: variable size, at least ${formatBytes(s.bytes)} ${by}`;
  // The request is the minimum rounded up to its region's alignment; only more than that is growth.
  return buffer.size > s.size
    ? `${asked}; grown to ${formatBytes(buffer.size)}, the free space the planner gave it at its step`
    : asked;
}

/** How a buffer shares another's bytes, in words: "in place", "a view". */
export function sharingRuleWords(rule: NonNullable<PlannedBuffer['alias']>['rule']): string {
  switch (rule) {
    case 'in-place':
      return 'in place';
    case 'removable':
      return 'a view';
    case 'window':
      return 'a window of it';
    case 'concat':
      return 'a part of a concat';
    case 'overlay':
      return 'an overlay';
  }
}

/**
 * The buffers that share the bytes of buffer `id`, directly or through one
 * another (an in-place op on an in-place op's output), in plan order.
 */
export function sharersOf(buffers: readonly PlannedBuffer[], id: number): PlannedBuffer[] {
  const byId = new Map(buffers.map((b) => [b.id, b]));
  const sharesWith = (b: PlannedBuffer): boolean => {
    const seen = new Set<number>();
    for (let parent = b.alias?.parent; parent !== undefined && !seen.has(parent); parent = byId.get(parent)?.alias?.parent) {
      if (parent === id) return true;
      seen.add(parent);
    }
    return false;
  };
  return buffers.filter(sharesWith);
}

/** The steps a buffer's bytes are held, with the buffers that share them: the block the heap outlines, half-open. */
export function sharedBlockSteps(buffer: Pick<PlannedBuffer, 'start' | 'end'>, sharers: readonly Pick<PlannedBuffer, 'start' | 'end'>[]): readonly [number, number] {
  return [Math.min(buffer.start, ...sharers.map((b) => b.start)), Math.max(buffer.end, ...sharers.map((b) => b.end))];
}
