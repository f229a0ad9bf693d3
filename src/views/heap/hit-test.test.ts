import { zoomIdentity } from 'd3';
import { describe, expect, it } from 'vitest';
import { heapBuffer, heapPlan } from '../testing/heap-plans';
import { heapData } from './heap-data';
import { baseScales, heapLayout, zoomedScales } from './heap-geometry';
import { bufferAt } from './hit-test';

// One lane over 4 steps in a 482 x 198 element: the plot is 400 x 122, the
// lane spans y 16..122 for 106 bytes (100 and 6% headroom), so x = 100 * step
// and y = 122 - address: one step is 100 px, one byte one pixel.
//   0: steps [0, 2), bytes [0, 60)     y 122..62
//   1: steps [1, 3), bytes [60, 100)   y 62..22
//   2: steps [2, 4), bytes [0, 60)
//   3: steps [1, 2), bytes [60, 80), sharing 1's bytes
//   4: steps [1, 3), bytes [60, 70), sharing 1's bytes
const data = heapData(
  heapPlan(
    [{ name: 'sram', peak: 100 }],
    [
      heapBuffer(0, 'sram', 0, 2, 0, 60),
      heapBuffer(1, 'sram', 1, 3, 60, 40),
      heapBuffer(2, 'sram', 2, 4, 0, 60),
      heapBuffer(3, 'sram', 1, 2, 60, 20, 1),
      heapBuffer(4, 'sram', 1, 3, 60, 10, 1),
    ],
    4,
  ),
);
const layout = heapLayout(data, 482, 198);
const base = baseScales(data, layout);
const at = (px: number, py: number): number | undefined => bufferAt(data, layout, base, zoomIdentity, px, py);

describe('bufferAt', () => {
  it('finds the buffer whose rectangle holds the point', () => {
    expect(at(50, 100)).toBe(0); // step 0.5, address 22
    expect(at(250, 30)).toBe(1); // step 2.5, address 92
    expect(at(350, 100)).toBe(2); // step 3.5, address 22
  });

  it('takes a buffer from its first step up to, not including, its end', () => {
    expect(at(199, 100)).toBe(0); // step 1.99
    expect(at(200, 100)).toBe(2); // step 2: 0 has ended, 2 has begun
    expect(at(99, 30)).toBeUndefined(); // step 0.99: 1 has not begun
  });

  it('finds nothing outside the plot, above the lane or on free bytes', () => {
    expect(at(-1, 100)).toBeUndefined();
    expect(at(400, 100)).toBeUndefined(); // the plot is [0, 400) wide
    expect(at(50, 122)).toBeUndefined(); // and [0, 122) tall
    expect(at(50, 10)).toBeUndefined(); // the lane's label, above its top at 16
    expect(at(50, 40)).toBeUndefined(); // step 0.5, address 82: nothing there yet
  });

  it('hits a buffer within one pixel (here one byte) of its edge', () => {
    // Step 0.5: 0 ends at address 60 (y 62); the point's address is 60.5, then 61.5.
    expect(at(50, 61.5)).toBe(0);
    expect(at(50, 60.5)).toBeUndefined();
  });

  it('prefers a buffer sharing bytes over their owner, then the smaller', () => {
    expect(at(150, 50)).toBe(3); // address 72: 1 and 3 (4 ends at 70)
    expect(at(150, 55)).toBe(4); // address 67: 1, 3 and 4, the smallest sharer
    expect(at(250, 50)).toBe(1); // step 2.5: 3 has ended, 4 ends at address 70
    expect(at(250, 55)).toBe(4);
  });

  it('finds buffers under a zoom with the zoomed scales', () => {
    // Scale 2, pan (-100, -22): x = 200 * step - 100, y = 2 * (122 - address) - 22.
    const t = zoomIdentity.translate(-100, -22).scale(2);
    const scales = zoomedScales(base, t);
    expect(bufferAt(data, layout, scales, t, 200, 110)).toBe(0); // step 1.5, address 56
    expect(bufferAt(data, layout, scales, t, 200, 100)).toBe(4); // step 1.5, address 61: 1, 3 and 4
    expect(bufferAt(data, layout, scales, t, 200, 72)).toBe(3); // step 1.5, address 75: 1 and 3
    expect(bufferAt(data, layout, scales, t, 200, 40)).toBe(1); // step 1.5, address 91
    expect(bufferAt(data, layout, scales, t, 200, 5)).toBeUndefined(); // above the lane, now at y 10
  });
});
