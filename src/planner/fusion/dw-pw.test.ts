import { describe, expect, it } from 'vitest';
import type { InferredGraph } from '../../model/inferred';
import { buildDwPwUnits, cacheWindow } from './dw-pw';
import { convNet, fusionSettings, type ConvNet } from './testing/conv-net';
import { checkUnits } from './tfu/check';

/** x [1,8,16,16] -> dw (3×3, pad 1); one row of its result is 16 × 8 × 4 B = 512 B. */
const start = () => convNet([1, 8, 16, 16]).dw('dw', 'x');
const pw = (net: ConvNet, from: string, group = 1) => net.conv('pw', from, { out: 16, group }).output('pw').graph();
const fuse = (g: InferredGraph, cache = 2048, taken: readonly number[] = []) =>
  buildDwPwUnits(g, g.nodes.map((_, i) => i), fusionSettings({ dwPwCacheBytes: cache }), { taken: new Set(taken) });

describe('cacheWindow', () => {
  const [dw] = start().graph().values.filter((v) => v.name === 'dw');

  it('holds as many whole rows as fit, and slides over the map in passes', () => {
    expect(cacheWindow(2048, [dw!])).toEqual({ capacity: 2048, rowBytes: 512, rows: 4, bytes: 2048, passes: 4 });
    expect(cacheWindow(3000, [dw!])).toEqual({ capacity: 3000, rowBytes: 512, rows: 5, bytes: 2560, passes: 4 });
  });

  it('holds the whole map at most, and nothing when one row does not fit', () => {
    expect(cacheWindow(1 << 20, [dw!])).toMatchObject({ rows: 16, bytes: 8192, passes: 1 });
    expect(cacheWindow(511, [dw!])).toBeUndefined();
  });
});

describe('depthwise + pointwise detection', () => {
  it('fuses a depthwise Conv read only by a pointwise Conv', () => {
    const g = pw(start(), 'dw');
    const r = fuse(g);
    expect(r.units.map((u) => [u.kind, u.nodes, u.internal, u.output, u.firstStep, u.lastStep])).toEqual([['dw-pw', ['dw', 'pw'], ['dw'], 'pw', 0, 1]]);
    expect(r.units[0]!.cache).toEqual({ capacity: 2048, rowBytes: 512, rows: 4, bytes: 2048, passes: 4 });
    expect(checkUnits(g, r.units, fusionSettings({ dwPwCacheBytes: 2048 }))).toEqual([]);
  });

  it('takes BatchNorm and Relu after the depthwise Conv into the module', () => {
    const net = start().constant('s', [8]).constant('b', [8]).constant('m', [8]).constant('v', [8]);
    const g = pw(net.op('BatchNormalization', 'bn', 'dw', 's', 'b', 'm', 'v').op('Relu', 'relu', 'bn'), 'relu');
    expect(fuse(g).units[0]!.nodes).toEqual(['dw', 'bn', 'relu', 'pw']);
  });

  it('takes BatchNorm exported as Mul then Add, and Clip with constant bounds', () => {
    const net = start().constant('scale', [8, 1, 1]).constant('shift', [8, 1, 1]).constant('lo', []).constant('hi', []);
    const g = pw(net.op('Mul', 'mul', 'dw', 'scale').op('Add', 'add', 'mul', 'shift').op('Clip', 'clip', 'add', 'lo', 'hi'), 'clip');
    expect(fuse(g).units[0]!.internal).toEqual(['dw', 'mul', 'add', 'clip']);
  });

  it('takes HardSwish exported as nodes that fork from the result and rejoin', () => {
    const net = start().constant('three', []).constant('six', []);
    const hs = net.op('Add', 'plus3', 'dw', 'three').op('Clip', 'relu6', 'plus3').op('Mul', 'times', 'dw', 'relu6').op('Div', 'hswish', 'times', 'six');
    const g = pw(hs, 'hswish');
    const r = fuse(g);
    expect(r.units[0]!.nodes).toEqual(['dw', 'plus3', 'relu6', 'times', 'hswish', 'pw']);
    expect(checkUnits(g, r.units, fusionSettings({ dwPwCacheBytes: 2048 }))).toEqual([]);
  });

  it('fuses a grouped pointwise Conv', () => {
    expect(fuse(pw(start(), 'dw', 2)).units).toHaveLength(1);
  });
});

describe('depthwise Convs left out', () => {
  const reason = (g: InferredGraph, cache = 2048) => {
    const r = fuse(g, cache);
    expect(r.units).toEqual([]);
    return r.notes.get(0);
  };

  it('when something outside the module reads the depthwise result', () => {
    const g = start().op('Relu', 'relu', 'dw').conv('pw', 'relu', { out: 16 }).op('Add', 'skip', 'relu', 'x').output('pw', 'skip').graph();
    expect(reason(g)).toBe("not fused with a pointwise Conv: the depthwise result is read outside its module by Conv 'pw' and Add 'skip'");
  });

  it('when the reader is not a pointwise Conv', () => {
    const g = start().op('Relu', 'relu', 'dw').conv('c3', 'relu', { out: 16, k: 3, p: 1 }).output('c3').graph();
    expect(reason(g)).toBe("not fused with a pointwise Conv: the depthwise result feeds Conv 'c3', not a pointwise (1×1) Conv");
  });

  it('when the reader mixes in another tensor (Concat)', () => {
    const g = start().op('Relu', 'relu', 'dw').concat('cat', 'relu', 'x').conv('pw', 'cat', { out: 16 }).output('pw').graph();
    expect(reason(g)).toBe("not fused with a pointwise Conv: the depthwise result feeds Concat 'cat', not a pointwise (1×1) Conv");
  });

  it('when the depthwise result is a graph output', () => {
    const g = start().conv('pw', 'dw', { out: 16 }).output('pw', 'dw').graph();
    expect(reason(g)).toBe("not fused with a pointwise Conv: the depthwise module's tensor 'dw' is a graph output");
  });

  it('when not one row fits the cache', () => {
    expect(reason(pw(start(), 'dw'), 500)).toBe('not fused with a pointwise Conv: one row of its result (512 B) exceeds the cache of 500 B');
  });

  it('when another layer runs between the depthwise and the pointwise Conv', () => {
    const g = start().op('Relu', 'other', 'x').conv('pw', 'dw', { out: 16 }).output('pw', 'other').graph();
    expect(reason(g)).toBe("not fused with a pointwise Conv: 'other' runs between the depthwise Conv and the pointwise Conv");
  });

  it('when its steps are already in another unit', () => {
    expect(fuse(pw(start(), 'dw'), 2048, [1]).units).toEqual([]);
  });

  it('a Conv with one group is not depthwise and not looked at', () => {
    const g = convNet([1, 8, 16, 16]).conv('c', 'x', { out: 8, k: 3, p: 1 }).conv('pw', 'c', { out: 16 }).output('pw').graph();
    const r = fuse(g);
    expect([r.units, r.notes.size]).toEqual([[], 0]);
  });
});

describe('checkUnits on depthwise + pointwise units', () => {
  it('finds a window over the capacity, and one that does not cover the map', () => {
    const g = pw(start(), 'dw');
    const [unit] = fuse(g).units;
    const s = fusionSettings({ dwPwCacheBytes: 2048 });
    expect(checkUnits(g, [{ ...unit!, cache: { ...unit!.cache!, bytes: 4096 } }], s).map((v) => v.rule)).toEqual(['cache']);
    expect(checkUnits(g, [{ ...unit!, cache: { ...unit!.cache!, passes: 3 } }], s).map((v) => v.message)).toEqual([
      'the windows do not cover the depthwise result',
    ]);
  });
});
