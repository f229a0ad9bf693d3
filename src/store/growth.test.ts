import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from './create-store';
import { currentGrowth, selectGrowthSummary } from './growth';
import { selectPageSummary } from './selectors';
import { createFakeClient } from './testing/fake-client';
import type { GrowthAxis } from '../worker/protocol';
import { inferShapes, type InferOptions } from '../model/infer/shapes';
import { tinyDecoderIr, tinyMaskedDecoderIr } from '../model/testing/tiny-decoder';
import { GraphBuilder } from '../model/testing/onnx-writer';
import { decodeModel } from '../model/decode-model';

const BATCH: GrowthAxis = { kind: 'dim', name: 'batch' };

function setup() {
  const client = createFakeClient();
  const fetchFn = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
  const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
  return { store, client, actions: store.getState().actions };
}

async function opened() {
  const s = setup();
  await s.actions.openFile(new File(['producer'], 'a.onnx'));
  return s;
}

describe('store: growth curve', () => {
  it('plans the curve of the plan on screen and publishes it in the summary', async () => {
    const s = await opened();
    s.actions.sweepGrowth(BATCH, [1, 4, 16]);
    await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
    expect(s.client.growths).toEqual([{ axis: BATCH, values: [1, 4, 16], bindings: { dims: {}, shapes: {}, inputValues: {} }, settings: { target: 'cpu', strategy: undefined }, findFit: false }]);
    const summary = selectGrowthSummary(s.store.getState());
    expect(summary).toMatchObject({ dim: 'batch', status: 'done', current: 1, monotonic: true, fitsUpTo: null });
    // The fake model's x and y, 16 bytes per batch each, rounded up to the cpu preset's 64 bytes.
    expect(summary?.points.map((p) => [p.value, p.peak])).toEqual([
      [1, 128],
      [4, 128],
      [16, 512],
    ]);
    expect(selectPageSummary(s.store.getState()).peak).toBe(128);
  });

  it("carries the open pane's refusal when it offers nothing to vary, with its reason as the error", async () => {
    const s = await opened();
    expect(selectGrowthSummary(s.store.getState())).toBeNull();
    const why = 'On target tflm the plan is of the file’s own shapes: no dim changes it.';
    s.actions.setGrowthRefused(why);
    expect(selectGrowthSummary(s.store.getState())).toEqual({ dim: '', status: 'failed', current: null, points: [], fitsUpTo: null, monotonic: null, assumed: [], assumes: [], rangeError: null, error: why });
    s.actions.setGrowthRefused(undefined);
    expect(selectGrowthSummary(s.store.getState())).toBeNull();
  });

  it('keeps the curve when a point of it is planned, and drops it for other settings', async () => {
    const s = await opened();
    s.actions.sweepGrowth(BATCH, [1, 4, 16]);
    await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
    await s.actions.setDim('batch', 16);
    expect(selectPageSummary(s.store.getState()).peak).toBe(512);
    expect(selectGrowthSummary(s.store.getState())).toMatchObject({ current: 16, status: 'done' });
    s.actions.sweepGrowth(BATCH, [1, 4, 16]);
    expect(s.client.growths).toHaveLength(1);
    await s.actions.setSettings({ strategy: 'naive' });
    expect(currentGrowth(s.store.getState())).toBeUndefined();
    s.actions.sweepGrowth(BATCH, [1, 4, 16]);
    await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
    expect(s.client.growths.at(-1)?.settings).toEqual({ target: 'cpu', strategy: 'naive' });
  });

  it('finds where the plan stops fitting when a region has a size limit', async () => {
    const s = await opened();
    await s.actions.setSettings({ edits: { regions: { ram: { sizeLimit: 256 } } } });
    s.actions.sweepGrowth(BATCH, [1, 16]);
    await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
    expect(s.client.growths.at(-1)?.findFit).toBe(true);
    // Probes planned by the bisection are not curve points.
    expect(selectGrowthSummary(s.store.getState())).toMatchObject({ fitsUpTo: 8, points: [{ value: 1, fits: true }, { value: 16, fits: false }] });
  });

  it('keeps the points so far when cancelled, and plans again only when asked', async () => {
    const s = await opened();
    s.client.hold = true;
    s.actions.sweepGrowth(BATCH, [1, 4]);
    expect(currentGrowth(s.store.getState())?.status).toBe('running');
    s.actions.cancelGrowth();
    expect(s.client.growthCancels).toBe(1);
    await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('cancelled'));
    s.actions.sweepGrowth(BATCH, [1, 4]);
    expect(s.client.growths).toHaveLength(1);
    s.client.hold = false;
    s.actions.sweepGrowth(BATCH, [1, 4], true);
    await s.client.release();
    await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
    expect(s.client.growths).toHaveLength(2);
  });

  it('says in the summary which If branch every point assumes, as sweep does', async () => {
    const g = new GraphBuilder('if-dim');
    g.input('x', 'float32', ['N', 8]);
    const sr = g.input('sr', 'int64', [1]);
    const branch = (name: string): GraphBuilder => {
      const b = new GraphBuilder(name);
      b.output(b.nodeOutputs('Relu', ['x'], [`${name}.y`], {}, { name: `${name}/Relu` })[0]!, 'float32', ['N', 8]);
      return b;
    };
    const c = g.node('Equal', [sr, g.initializer('k16000', 'int64', [1], [16000])], {}, { name: 'is16k' });
    g.nodeOutputs('If', [c], ['y'], { then_branch: branch('wide'), else_branch: branch('narrow') }, { name: 'pick/If' });
    g.output('y', 'float32', ['N', 8]);
    const ir = decodeModel(g.toBytes({ opset: 13 }), { name: 'if.onnx' });
    const client = createFakeClient((_ir, options: InferOptions) => inferShapes(ir, options));
    const fetchFn = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
    const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
    await store.getState().actions.openFile(new File(['producer'], 'if.onnx'));
    store.getState().actions.sweepGrowth({ kind: 'dim', name: 'N' }, [1, 4]);
    await vi.waitFor(() => expect(currentGrowth(store.getState())?.status).toBe('done'));
    const summary = selectGrowthSummary(store.getState());
    expect(summary?.assumed).toEqual([]);
    expect(summary?.assumes).toEqual([expect.stringMatching(/^branch pick\/If: \w+ at every value — the condition is not known before the run/)]);
  });

  describe('on a decoder with a KV cache', () => {
    /** The tiny decoder, whatever file is opened. */
    const decoder = tinyDecoderIr();
    const PAST: GrowthAxis = { kind: 'dim', name: 'past_len' };

    async function openedDecoder() {
      const client = createFakeClient((_ir, options: InferOptions) => inferShapes(decoder, options));
      const fetchFn = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
      const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
      const actions = store.getState().actions;
      await actions.openFile(new File(['producer'], 'decoder.onnx'));
      return { store, client, actions };
    }

    it('refuses a curve of the total length, which the graph ties to the sequence and past lengths, with the reason', async () => {
      const masked = tinyMaskedDecoderIr();
      const client = createFakeClient((_ir, options: InferOptions) => inferShapes(masked, options));
      const fetchFn = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
      const store = createAppStore({ client, fetch: fetchFn, baseUrl: 'https://app.example/', sampleUrl: 'https://app.example/sample.onnx' });
      await store.getState().actions.openFile(new File(['producer'], 'decoder.onnx'));
      store.getState().actions.sweepGrowth({ kind: 'dim', name: 'total_len' }, [1, 16, 128]);
      await vi.waitFor(() => expect(currentGrowth(store.getState())?.status).toBe('failed'));
      expect(client.growths).toEqual([]);
      expect(selectGrowthSummary(store.getState())).toMatchObject({
        dim: 'total_len',
        status: 'failed',
        points: [],
        error: 'total_len is not a free axis: the graph ties total_len to seq + past_len, so it cannot vary alone; sweep past_len or seq instead',
      });
    });

    it('plans a sweep of the cache length as a decode step and says so in the summary', async () => {
      const s = await openedDecoder();
      s.actions.sweepGrowth(PAST, [0, 8]);
      await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
      expect(s.client.growths.at(-1)?.bindings.dims).toEqual({ seq: 1 });
      const summary = selectGrowthSummary(s.store.getState());
      expect(summary?.assumed).toEqual([{ name: 'seq', value: 1 }]);
      // One new token of 16 bytes, not 128 of them (2 KiB for x alone): at past_len 8, the cache's 128 bytes, the
      // present's 9 tokens (144, rounded up to 192 by the cpu preset's 64-byte alignment) and k (16, to 64) are live.
      expect(summary?.points.map((p) => [p.value, p.peak, p.complete])).toEqual([
        [0, 128, true],
        [8, 384, true],
      ]);
      // the page's own plan keeps the default sequence length
      expect(s.store.getState().model?.inferred.dims.find((d) => d.name === 'seq')?.value).toBe(128);
    });

    it('says in the summary what the points rest on, as sweep does: the default batch, the past inputs reused and what keeping them adds at the largest value', async () => {
      const s = await openedDecoder();
      s.actions.sweepGrowth(PAST, [0, 8]);
      await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
      const assumes = selectGrowthSummary(s.store.getState())?.assumes ?? [];
      expect(assumes).toEqual([
        'assumes batch=1 at every value (x:0, past_key:0; default: batch axis: one sample)',
        expect.stringMatching(/^assumes the bytes of each past input of the KV cache are reused after its last read \(past_key\), .*holds past and present at once: at past_len=8 \(the largest value\), no more bytes here/),
      ]);
    });

    it('keeps a sequence length the user gave', async () => {
      const s = await openedDecoder();
      await s.actions.setDim('seq', 128);
      s.actions.sweepGrowth(PAST, [0, 8]);
      await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
      expect(s.client.growths.at(-1)?.bindings.dims).toEqual({ seq: 128 });
      expect(selectGrowthSummary(s.store.getState())?.assumed).toEqual([]);
    });

    it('keeps the curve when a point of it is planned with its decode step', async () => {
      const s = await openedDecoder();
      s.actions.sweepGrowth(PAST, [0, 8]);
      await vi.waitFor(() => expect(currentGrowth(s.store.getState())?.status).toBe('done'));
      await s.actions.setDim('seq', 1);
      await s.actions.setDim('past_len', 8);
      expect(selectPageSummary(s.store.getState()).peak).toBe(selectGrowthSummary(s.store.getState())?.points[1]?.peak);
      expect(selectGrowthSummary(s.store.getState())).toMatchObject({ current: 8, status: 'done', assumed: [] });
      s.actions.sweepGrowth(PAST, [0, 8]);
      expect(s.client.growths).toHaveLength(1);
    });
  });
});
