import { describe, expect, it } from 'vitest';
import { parseDimsAttribute } from './dims-attribute';

describe('the dims attribute of <heapscope-view>', () => {
  it('reads bindings separated by commas or spaces, dim names with dots and colons included', () => {
    expect(parseDimsAttribute('batch=4, seq=128 input_ids:0=2').values).toEqual({ batch: 4, seq: 128, 'input_ids:0': 2 });
  });

  it('sets aside entries that are not NAME=whole number', () => {
    const dims = parseDimsAttribute('batch=4 seq=-1 x=1.5 lonely =3');
    expect(dims.values).toEqual({ batch: 4 });
    expect(dims.ignored).toEqual(['lonely', '=3', 'seq=-1: a dim is a length, a whole number from 0 to 2147483647, not negative', 'x=1.5: a dim is a whole number from 0 to 2147483647']);
  });

  it('is empty for an empty attribute', () => {
    expect(parseDimsAttribute('')).toEqual({ values: {}, ignored: [] });
  });
});
