import { describe, expect, it } from 'vitest';
import { graphLayers, isDepthwise, isPointwise, weightChannelDim, type Layer } from './layer-geometry';
import { convNet } from './testing/conv-net';
import { tfliteNet } from './testing/tflite-net';
import { samePadBegin } from './tflite-windows';

const window = (l: Layer) => [l.h, l.w].map((a) => [a.kernel, a.stride, a.padBegin, a.dilation]);

describe('SAME padding as TFLite computes it', () => {
  it('pads ceil(in / stride) outputs, the odd pixel last (hand-computed)', () => {
    // in 8, k 3, s 1: 8 outputs need 7 + 3 = 10 rows, 2 pads, 1 before
    expect(samePadBegin(8, 3, 1, 1)).toBe(1);
    // in 8, k 3, s 2: 4 outputs need 3·2 + 3 = 9 rows, 1 pad, 0 before
    expect(samePadBegin(8, 3, 2, 1)).toBe(0);
    // in 7, k 3, s 2: 4 outputs need 9 rows, 2 pads, 1 before
    expect(samePadBegin(7, 3, 2, 1)).toBe(1);
    // in 96, k 3, s 2 (person_detect's first layer): 48 outputs need 97 rows, 0 before
    expect(samePadBegin(96, 3, 2, 1)).toBe(0);
    // in 8, k 4, s 1: 3 pads, 1 before
    expect(samePadBegin(8, 4, 1, 1)).toBe(1);
    // in 8, k 3, dilation 2 (extent 5), s 1: 4 pads, 2 before
    expect(samePadBegin(8, 3, 1, 2)).toBe(2);
    // in 5, k 1, s 2: 3 outputs read rows 0, 2, 4: no pad
    expect(samePadBegin(5, 1, 2, 1)).toBe(0);
    // a window wider than needed never gives a negative pad: in 3, k 3, s 3: 1 output reads rows 0-2
    expect(samePadBegin(3, 3, 3, 1)).toBe(0);
  });
});

describe('layer windows of TFLite ops (NHWC, builtin options)', () => {
  it('CONV_2D: kernel from the filter [out, kh, kw, in], strides and pads per axis, SAME and VALID', () => {
    const g = tfliteNet([1, 16, 12, 4])
      .conv('same1', 'x', { out: 8, kh: 3, kw: 5 })
      .conv('same2', 'x', { out: 8, k: 3, sh: 2, sw: 1 })
      .conv('valid1', 'x', { out: 8, k: 3, padding: 'VALID' })
      .conv('valid2', 'x', { out: 8, k: 3, s: 2, padding: 'VALID' })
      .conv('dilated', 'x', { out: 8, k: 3, d: 2 })
      .output('same1', 'same2', 'valid1', 'valid2', 'dilated')
      .graph();
    const [same1, same2, valid1, valid2, dilated] = graphLayers(g);
    // H 16, W 12: a 3×5 window at stride 1 pads 1 row and 2 columns before
    expect(window(same1!)).toEqual([[3, 1, 1, 1], [5, 1, 2, 1]]);
    // H at stride 2: 8 outputs need 7·2 + 3 = 17 rows, 1 pad, 0 before; W at stride 1: 1 before
    expect(window(same2!)).toEqual([[3, 2, 0, 1], [3, 1, 1, 1]]);
    expect(window(valid1!)).toEqual([[3, 1, 0, 1], [3, 1, 0, 1]]);
    expect(window(valid2!)).toEqual([[3, 2, 0, 1], [3, 2, 0, 1]]);
    // extent 5 at stride 1: 4 pads, 2 before
    expect(window(dilated!)).toEqual([[3, 1, 2, 2], [3, 1, 2, 2]]);
    expect([same1!.layout, same1!.base, same1!.cls, same1!.group, same1!.tileable]).toEqual(['NHWC', 'Conv', 'main', 1, undefined]);
    expect(valid2!.output!.shape).toEqual([1, 7, 5, 8]);
  });

  it('DEPTHWISE_CONV_2D: a Conv with group = input channels, its filter [1, kh, kw, out] split by its last dim', () => {
    const g = tfliteNet([1, 8, 8, 6]).dw('dw', 'x', { s: 2 }).dw('dw2', 'dw', { multiplier: 2, padding: 'VALID' }).output('dw2').graph();
    const [dw, dw2] = graphLayers(g);
    expect(window(dw!)).toEqual([[3, 2, 0, 1], [3, 2, 0, 1]]);
    expect([dw!.group, dw2!.group, isDepthwise(dw!), isDepthwise(dw2!)]).toEqual([6, 6, true, true]);
    expect(dw2!.output!.shape).toEqual([1, 2, 2, 12]);
    expect(dw2!.weights.map((w) => weightChannelDim(dw2!, w))).toEqual([3, 0]);
  });

  it('a depthwise Conv of one channel is no depthwise Conv (as in ONNX); a grouped CONV_2D has its group', () => {
    const g = tfliteNet([1, 8, 8, 1]).dw('first', 'x', { multiplier: 8 }).conv('grouped', 'first', { out: 8, group: 2, k: 3 }).output('grouped').graph();
    const [first, grouped] = graphLayers(g);
    expect([first!.group, isDepthwise(first!)]).toEqual([1, false]);
    expect([grouped!.group, isDepthwise(grouped!)]).toEqual([2, false]);
  });

  it('tells 1×1 pointwise CONV_2Ds from others', () => {
    const g = tfliteNet([1, 8, 8, 8]).dw('dw', 'x').conv('pw', 'dw', { out: 16 }).conv('pw2', 'pw', { out: 8, s: 2 }).conv('c', 'pw2', { out: 8, k: 3 }).output('c').graph();
    expect(graphLayers(g).map((l) => [isDepthwise(l), isPointwise(l)])).toEqual([[true, false], [false, true], [false, false], [false, false]]);
  });

  it('pools: the kernel from filter_height and filter_width, no dilation', () => {
    const g = tfliteNet([1, 9, 9, 4])
      .pool('max', 'x', { kh: 3, kw: 2, s: 2 })
      .pool('avg', 'x', { k: 3, s: 2, padding: 'VALID', op: 'AVERAGE_POOL_2D' })
      .output('max', 'avg')
      .graph();
    const [max, avg] = graphLayers(g);
    // H 9, k 3, s 2: 5 outputs need 4·2 + 3 = 11 rows, 2 pads, 1 before; W 9, k 2: 10 rows, 1 pad, 0 before
    expect(window(max!)).toEqual([[3, 2, 1, 1], [2, 2, 0, 1]]);
    expect(window(avg!)).toEqual([[3, 2, 0, 1], [3, 2, 0, 1]]);
    expect([max!.base, avg!.base, avg!.cls, avg!.tileable]).toEqual(['MaxPool', 'AveragePool', 'main', undefined]);
  });

  it('FULLY_CONNECTED is a main layer like Gemm, with no tiling rule like Gemm', () => {
    const [fc] = graphLayers(tfliteNet([1, 1, 1, 32]).fc('fc', 'x', 10).output('fc').graph());
    expect([fc!.base, fc!.cls, fc!.tileable]).toEqual(['Gemm', 'main', 'FULLY_CONNECTED has no feature-map tiling rule']);
  });

  it('CONCATENATION tiles along channels only: NHWC axis 3 or -1', () => {
    const net = tfliteNet([1, 8, 8, 4]).conv('a', 'x', { out: 4 }).conv('b', 'x', { out: 4 });
    const g = net.concat('c3', 3, 'a', 'b').concat('cm1', -1, 'a', 'b').concat('c1', 1, 'a', 'b').output('c3', 'cm1', 'c1').graph();
    expect(graphLayers(g).slice(2).map((l) => l.tileable)).toEqual([undefined, undefined, 'CONCATENATION is not along channels']);
  });

  it('reads the same windows as the ONNX Conv of the same geometry', () => {
    const tflite = graphLayers(tfliteNet([1, 15, 15, 4]).conv('c', 'x', { out: 4, k: 3, s: 2 }).conv('v', 'c', { out: 4, k: 5, padding: 'VALID' }).output('v').graph());
    const onnx = graphLayers(convNet([1, 4, 15, 15]).conv('c', 'x', { out: 4, k: 3, s: 2, autoPad: 'SAME_UPPER' }).conv('v', 'c', { out: 4, k: 5, autoPad: 'VALID' }).output('v').graph());
    expect(tflite.map(window)).toEqual(onnx.map(window));
    expect(onnx.map((l) => l.layout)).toEqual(['NCHW', 'NCHW']);
  });
});
