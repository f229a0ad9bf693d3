import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOnnx } from '../../model/onnx/decode-onnx';
import { inferShapes } from '../../model/infer/shapes';
import { planForSettings } from '../../worker/plan/settings';
import { peakChartData } from '../heap/peak-chart-data';
import { heapSvg } from '../export/heap-svg';
import { kvCacheNames } from '../kv-cache-names';
import { formatBytes } from '../../shared/format';
import { barPartsText, memoryMapData } from './memory-map-data';

const GPT2 = join(__dirname, '../../../../shared/models/tiny-random-gpt2-fp32-past.onnx');

describe.skipIf(!existsSync(GPT2))('the memory map and the live-bytes chart of a decoder', () => {
  const model = inferShapes(decodeOnnx(new Uint8Array(readFileSync(GPT2)), {}), { dims: { past_seq_len: 64 } });
  const plan = planForSettings(model, { target: 'cpu', strategy: undefined });
  const kv = kvCacheNames(model);

  it('split the peak step alike: the logits output as I/O in both, the KV cache a part of its own in both', () => {
    const bar = memoryMapData(plan, kv).bars[0]!;
    const region = peakChartData(plan, kv).regions.find((r) => r.name === bar.name)!;
    const at = (k: keyof typeof region.byKind) => region.byKind[k][bar.step!]!;
    const logits = plan.buffers.find((b) => b.name === 'logits')!;
    expect(logits.start <= bar.step! && bar.step! < logits.end).toBe(true);
    expect(bar.io).toBeGreaterThanOrEqual(logits.size);
    expect(bar.kv).toBeGreaterThan(0);
    expect(bar.io).toBe(at('io'));
    expect(bar.kv).toBe(at('kv'));
    expect(bar.activations).toBe(at('activation') + at('cache') + at('copy'));
    expect(bar.io + bar.kv + bar.activations + bar.scratch).toBe(region.total[bar.step!]);
    expect(barPartsText(bar)).toBe(`at its fullest step ${bar.step}: I/O ${formatBytes(bar.io)} · KV cache ${formatBytes(bar.kv)} · activations ${formatBytes(bar.activations)}`);
  });

  it('carry the same split into the heap export', () => {
    const svg = heapSvg(plan, { kv });
    const bar = memoryMapData(plan, kv).bars[0]!;
    expect(svg).toContain(barPartsText(bar));
    expect(svg).toContain(`data-kv="${bar.kv}"`);
    expect(svg).toMatch(/>I\/O · [^<]+ at peak</); // the chart's row of graph inputs and outputs
  });
});
