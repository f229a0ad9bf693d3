import { describe, expect, it } from 'vitest';
import { searchSize, searchTile, tiledBytesOf, type Tile } from './feature-map';
import { convNet, fusionSettings } from './testing/conv-net';
import { candidateOf } from './tfu/candidate';
import { unitContext } from './tfu/builder';
import { inputRange, unitRanges } from './unit-ranges';

/** The unit shape of every layer of a graph, in file order. */
function unitOf(g: ReturnType<ReturnType<typeof convNet>['graph']>) {
  const order = g.nodes.map((_, i) => i);
  return candidateOf(unitContext(g, order, fusionSettings()), 0, order.length - 1).unit;
}

describe('inputRange', () => {
  it('maps output rows to input rows through kernel, stride, pad and dilation, clipped to the map', () => {
    expect(inputRange({ kernel: 3, stride: 1, padBegin: 1, dilation: 1 }, 0, 4, 8)).toEqual([0, 5]);
    expect(inputRange({ kernel: 3, stride: 2, padBegin: 1, dilation: 1 }, 2, 4, 8)).toEqual([3, 8]);
    expect(inputRange({ kernel: 3, stride: 1, padBegin: 2, dilation: 2 }, 3, 5, 16)).toEqual([1, 7]);
  });
});

describe('unitRanges', () => {
  it('takes the hull of the ranges of a tensor read by several layers (a residual)', () => {
    // x -> c1 (3×3) -> c2 (3×3) -> add(c2, x): output rows [2, 4) need c1 [1, 5), x [0, 6) via c1 and [2, 4) directly
    const g = convNet([1, 2, 8, 8]).conv('c1', 'x', { out: 2, k: 3, p: 1 }).conv('c2', 'c1', { out: 2, k: 3, p: 1 }).op('Add', 'a', 'c2', 'x').output('a').graph();
    const ranges = unitRanges(unitOf(g), 2, 2, 4);
    expect(Object.fromEntries(ranges)).toEqual({ a: [2, 4], c2: [2, 4], x: [0, 6], c1: [1, 5] });
  });
});

describe('searchSize', () => {
  const upTo = (limit: number) => (size: number) => size <= limit;

  it('large-to-small halves until it fits, then refines from the last failure by 3/4, 4/5, ...', () => {
    // 100 -> 50 -> 25 fits; refine from 50: 37 fits, 40 fits, 41 fits, 42 fits, 43 fits, 44 fits, 45 fits (9/10)
    expect(searchSize(100, 'large-to-small', upTo(45))).toBe(45);
    expect(searchSize(100, 'large-to-small', upTo(38))).toBe(37);
    expect(searchSize(100, 'large-to-small', upTo(100))).toBe(100);
    expect(searchSize(100, 'large-to-small', upTo(0))).toBeUndefined();
  });

  it('small-to-large grows by one until the next size no longer fits', () => {
    expect(searchSize(100, 'small-to-large', upTo(38))).toBe(38);
    expect(searchSize(10, 'small-to-large', upTo(100))).toBe(10);
    expect(searchSize(10, 'small-to-large', upTo(0))).toBeUndefined();
  });
});

describe('searchTile', () => {
  const g = convNet([4, 2, 8, 8]).conv('c1', 'x', { out: 2, k: 3, p: 1 }).output('c1').graph();
  const unit = unitOf(g);
  /** Accepts a tile when maps × rows × cols stays within `cells`. */
  const within = (cells: number) => (t: Tile) => t.maps * t.rows * t.cols <= cells;

  it('loads several whole maps in small-map mode, at most maxSmallMaps', () => {
    expect(searchTile(unit, 'large-to-small', 8, within(3 * 64))).toEqual({ mode: 'small-map', maps: 3, rows: 8, cols: 8 });
    expect(searchTile(unit, 'small-to-large', 2, within(4 * 64))).toEqual({ mode: 'small-map', maps: 2, rows: 8, cols: 8 });
  });

  it('splits N to one map, then H, then W in large-map mode', () => {
    // 8 rows fail, 4 fit; the refinements from 8 (6, 7) fail: 4 rows
    expect(searchTile(unit, 'large-to-small', 8, within(40))).toEqual({ mode: 'large-map', maps: 1, rows: 4, cols: 8 });
    expect(searchTile(unit, 'small-to-large', 8, within(40))).toEqual({ mode: 'large-map', maps: 1, rows: 5, cols: 8 });
    expect(searchTile(unit, 'small-to-large', 8, within(5))).toEqual({ mode: 'large-map', maps: 1, rows: 1, cols: 5 });
    expect(searchTile(unit, 'large-to-small', 8, within(0))).toBeUndefined();
  });
});

describe('tiledBytesOf', () => {
  it('counts every loaded row and column once per tile', () => {
    const g = convNet([1, 1, 8, 4]).conv('c1', 'x', { out: 1, k: 3, p: 1 }).output('c1').graph();
    const unit = unitOf(g);
    // rows [0,4) and [4,8) load input rows [0,5) and [3,8): 10 rows × 4 cols × 4 B
    expect(tiledBytesOf(unit, { mode: 'large-map', maps: 1, rows: 4, cols: 4 }, unit.inputs[0]!)).toBe(160);
  });
});
