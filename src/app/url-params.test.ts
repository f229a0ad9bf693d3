import { describe, expect, it } from 'vitest';
import { parseUrlParams } from './url-params';

describe('URL parameters', () => {
  it('reads the model URL, dims and embed flag', () => {
    const p = parseUrlParams('?model=https%3A%2F%2Fx.example%2Fm.onnx&dim.batch=8&dim.sequence_length=128&embed=1');
    expect(p).toEqual({
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
