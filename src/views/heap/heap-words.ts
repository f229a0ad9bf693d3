// What a screen reader hears as the keyboard walks the heap diagram: a step
// (its node, how many buffers are live and their bytes, shared bytes counted
// once, as Details counts them) or a buffer (its name, size, region and
// lifetime). Plain functions of the view model; heap-view.tsx reads them out
// in a polite live region.

import { liveAtStep } from '../../planner/assembly/live-at';
import { formatBytes } from '../../shared/format';
import { shortName } from '../../shared/short-name';
import { peakText } from '../plan-words';
import { KIND_CLASSES, kindText } from './buffer-classes';
import type { BufferFacts, HeapData } from './heap-data';

/** Step `step` in words: "step 12, Conv n12, 3 buffers live, 6.89 MiB". */
export function stepWords(data: HeapData, step: number): string {
  const info = data.plan.steps[step];
  const live = data.lanes.flatMap((lane) => liveAtStep(data.plan.buffers, step, lane.name));
  const total = live.reduce((sum, b) => sum + b.counted, 0);
  const node = info === undefined ? 'no node' : `${shortName(info.opType)} ${shortName(info.node)}`;
  return `step ${step}, ${node}, ${live.length} buffer${live.length === 1 ? '' : 's'} live, ${peakText(total, data.plan.complete)}`;
}

/** Buffer `i` in words: "logits, 3.94 KiB activation in sram, live from step 4 through step 9" (its lifetime [4, 10)). */
export function bufferWords(data: HeapData, i: number): string {
  const b = data.plan.buffers[i]!;
  const kind = kindText(b.kind, KIND_CLASSES[data.kindClass[i]!] === 'kv', b.state === true);
  const life = b.end - 1 <= b.start ? `live at step ${b.start} only` : `live from step ${b.start} through step ${b.end - 1}`;
  return `${shortName(b.name)}, ${formatBytes(b.size)} ${kind} in ${shortName(b.region)}, ${life}`;
}

/**
 * Where a buffer no op of the plan writes comes from, for the hover card's Op:
 * a graph input, model state kept between runs, or an operator's scratch
 * tensor TensorFlow Lite Micro allocates in its arena (a Vela ethos-u op's),
 * which is no graph input though the file leaves it unwritten.
 */
export function noProducerWords(facts: Pick<BufferFacts, 'buffer' | 'scratchOf'>): string {
  if (facts.scratchOf !== undefined) return `none: scratch tensor of ${shortName(facts.scratchOf)}, in the arena`;
  return facts.buffer.state === true ? 'none: model state' : 'graph input';
}
