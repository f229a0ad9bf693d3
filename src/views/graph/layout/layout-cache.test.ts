import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inferShapes } from '../../../model/infer/shapes';
import type { InferredModel } from '../../../model/inferred';
import { LLAMA_80, llamaModel } from '../../../model/testing/llama-model';
import { decodeOnnx } from '../../../model/onnx/decode-onnx';
import type { GraphPlacement } from '../../../worker/layout/protocol';
import { graphGroups } from '../groups/groups';
import { formatBytes } from '../../../shared/format';
import { BYTES_SLOT } from './boxes';
import { cachedPlacement, keepPlacement, modelCacheKey } from './layout-cache';
import { graphLayoutInput, type GraphLayoutInput, type GraphToggles } from './layout-input';

const decoder = decodeOnnx(llamaModel({ ...LLAMA_80, layers: 3 }));

/** The decoder inferred at `seq` tokens. */
function atSeq(seq: number): InferredModel {
  return inferShapes(decoder, { dims: { batch: 1, seq, past_seq: 0 } });
}

/** The decoder's layers collapsed, the other groups open: the pane keeps its groups through re-inference. */
const FIRST: GraphToggles = { collapsed: new Set(graphGroups(atSeq(1), undefined, false).scopes.filter((s) => s.label.startsWith('layers.')).map((s) => s.id)), bodies: new Set() };

/** The graph of `model` in the pane's first view. */
function firstView(model: InferredModel): GraphLayoutInput {
  return graphLayoutInput(model, undefined, FIRST);
}

/** A placement standing for the layout worker's answer. */
const PLACEMENT: GraphPlacement = { boxes: [], links: [], width: 1, height: 1, engine: 'elk', ms: 1 };

describe('the layout cache', () => {
  // Sizes whose byte figures differ in length: 1 token against 1,000.
  const short = atSeq(1);
  const long = atSeq(1000);

  it('names the same structure alike whatever the dims, though the sizes shown change', () => {
    const [a, b] = [firstView(short), firstView(long)];
    const subtitles = (input: GraphLayoutInput): string[] => [...input.items.values()].map((i) => i.subtitle);
    expect(subtitles(a)).not.toEqual(subtitles(b));
    expect(modelCacheKey(long)).toBe(modelCacheKey(short));
    expect(b.key).toBe(a.key);
  });

  it('sizes boxes for the longest byte figure there is', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (n) => formatBytes(n).length <= BYTES_SLOT.length));
    expect(formatBytes(99.97 * 1024)).toHaveLength(BYTES_SLOT.length);
  });

  it('hands a re-inference the placement of the inference before it', () => {
    const a = firstView(short);
    keepPlacement(short, a.key, PLACEMENT);
    expect(cachedPlacement(long, firstView(long).key)).toBe(PLACEMENT);
  });

  it('hands a model of another structure nothing', () => {
    const other = inferShapes(decodeOnnx(llamaModel({ ...LLAMA_80, layers: 4 })), { dims: { batch: 1, seq: 1, past_seq: 0 } });
    keepPlacement(short, firstView(short).key, PLACEMENT);
    expect(firstView(other).key).not.toBe(firstView(short).key);
    expect(cachedPlacement(other, firstView(other).key)).toBeUndefined();
    // Expanding a layer is another structure of the same model.
    const open = graphLayoutInput(short, undefined, { collapsed: new Set(), bodies: new Set() });
    expect(open.key).not.toBe(firstView(short).key);
  });
});
