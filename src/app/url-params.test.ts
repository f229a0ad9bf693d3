import { describe, expect, it } from 'vitest';
import { fullViewHref, parseUrlParams, shareSearch, shareableModelUrl } from './url-params';
import { NO_EXTRAS } from './url-settings';

describe('URL parameters', () => {
  it('reads the model URL, dims and embed flag', () => {
    const p = parseUrlParams('?model=https%3A%2F%2Fx.example%2Fm.onnx&dim.batch=8&dim.sequence_length=128&embed=1');
    expect(p).toEqual({
      ...NO_EXTRAS,
      model: 'https://x.example/m.onnx',
      dims: { batch: 8, sequence_length: 128 },
      embed: true,
      strategy: undefined,
      target: undefined,
      ignored: [],
    });
  });

  it('keeps dim names with dots and colons, and sets aside values that are not whole numbers', () => {
    const p = parseUrlParams('?dim.input_ids:0=2&dim.a.b=3&dim.x=-1&dim.y=1.5&dim.z=abc&dim.=4');
    expect(p.dims).toEqual({ 'input_ids:0': 2, 'a.b': 3 });
    expect(p.ignored).toEqual(['dim.x=-1', 'dim.y=1.5', 'dim.z=abc', 'dim.=4']);
  });

  it('defaults to the sample with no dims', () => {
    expect(parseUrlParams('')).toMatchObject({ model: undefined, dims: {}, embed: false });
    expect(parseUrlParams('?model=&embed=0')).toMatchObject({ model: undefined, embed: false });
  });
});

describe('share links', () => {
  const view = { ...NO_EXTRAS, model: 'https://x.example/m.onnx', dims: { seq: 128, batch: 4 }, strategy: 'tflm', target: 'mcu', embed: false };

  it('writes every setting so that parsing the link gives the same view back', () => {
    const search = shareSearch(view);
    expect(search).toBe('?model=https%3A%2F%2Fx.example%2Fm.onnx&target=mcu&strategy=tflm&dim.batch=4&dim.seq=128');
    expect(parseUrlParams(search)).toEqual({ ...view, ignored: [] });
  });

  it('drops stale settings of the current URL but keeps parameters it does not own', () => {
    const search = shareSearch(
      { ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: undefined, embed: true },
      '?model=old.onnx&dim.batch=9&strategy=naive&shape.x=1x2&fusion=0&select=step:3&utm=docs',
    );
    expect(search).toBe('?utm=docs&embed=1');
  });

  it('is empty for the sample with default settings', () => {
    expect(shareSearch({ ...NO_EXTRAS, model: undefined, dims: {}, strategy: undefined, target: undefined, embed: false })).toBe('');
  });

  it('round-trips target fields, switches, shapes, input values, the selection and a local file name', () => {
    const full = {
      ...view,
      model: undefined,
      file: 'det model.onnx',
      shapes: { 'mystery/out:0': [1, 64, 32, 32], scalar: [] },
      inputValues: { sr: [16000], mask: [1, 0, 0.5] },
      edits: { regions: { sram: { sizeLimit: 1048576, alignment: 32 }, 'ext.ram': { sizeLimit: 'none' as const } }, fusion: false, computeUnits: true, dwPwCacheBytes: 4096, sramBytes: 8388608, order: 'depth-first' as const },
      budgetMs: 5000,
      selection: { kind: 'node' as const, node: '/stem/conv/Conv' },
    };
    const search = shareSearch(full);
    expect(search).toContain('budget=5000');
    expect(search).toContain('region.sram.limit=1048576');
    expect(search).toContain('fusion=0');
    expect(search).toContain('sram=8388608');
    expect(search).toContain('order=depth-first');
    expect(parseUrlParams(search)).toEqual({ ...full, ignored: [] });
    for (const selection of [{ kind: 'buffer', buffer: 12 }, { kind: 'step', step: 0 }] as const) {
      expect(parseUrlParams(shareSearch({ ...full, selection })).selection).toEqual(selection);
    }
  });

  it('ignores extras that do not parse, naming them', () => {
    const p = parseUrlParams('?shape.x=1xtwo&input.sr=fast&fusion=maybe&cache=-1&sram=big&order=random&region.sram.limit=lots&region.size=4&select=edge:3');
    expect(p.shapes).toEqual({});
    expect(p.inputValues).toEqual({});
    expect(p.edits).toBeUndefined();
    expect(p.selection).toBeUndefined();
    expect(p.ignored).toHaveLength(9);
  });

  it('reads a search budget in whole milliseconds and names a bad one, as the other extras', () => {
    expect(parseUrlParams('?budget=30000')).toMatchObject({ budgetMs: 30000, ignored: [] });
    for (const bad of ['0', '-5', '1.5', 'soon', '', '99999999999999999999']) {
      expect(parseUrlParams(`?budget=${bad}`)).toMatchObject({ budgetMs: undefined, ignored: [`budget=${bad}`] });
    }
    expect(shareSearch({ ...view, budgetMs: undefined })).not.toContain('budget');
    // A link rewritten from the page keeps no stale budget of the address it replaces.
    expect(shareSearch({ ...view, budgetMs: undefined }, '?budget=1000&utm=x')).toContain('utm=x');
    expect(shareSearch({ ...view, budgetMs: undefined }, '?budget=1000')).not.toContain('budget');
  });

  it('links same-origin models by path and others by full URL; never blob or data URLs', () => {
    const page = 'http://127.0.0.1:4173/app/?embed=1';
    expect(shareableModelUrl('http://127.0.0.1:4173/models/a.onnx?v=2', page)).toBe('/models/a.onnx?v=2');
    expect(shareableModelUrl('https://cdn.example/b.onnx', page)).toBe('https://cdn.example/b.onnx');
    expect(shareableModelUrl('blob:http://127.0.0.1:4173/1234', page)).toBeUndefined();
    expect(shareableModelUrl(undefined, page)).toBeUndefined();
  });
});

describe('the link out of an embedded view', () => {
  it('is the same view without embed=1', () => {
    expect(fullViewHref('https://x.example/app/?embed=1&model=m.onnx&dim.batch=2#top')).toBe('https://x.example/app/?model=m.onnx&dim.batch=2#top');
  });
});
