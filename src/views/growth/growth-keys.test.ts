import { describe, expect, it } from 'vitest';
import type { GrowthPoint } from '../../worker/protocol';
import { movesPoint, nextPoint } from './growth-keys';

const points = [1, 2, 4, 8, 16].map((value): GrowthPoint => ({ value, peak: value, lowerBound: value, regions: [], complete: true, fits: true }));

describe('nextPoint', () => {
  it('steps one point at a time and holds at the ends', () => {
    expect(nextPoint(points, 2, 4, 'ArrowRight')).toBe(3);
    expect(nextPoint(points, 2, 4, 'ArrowUp')).toBe(3);
    expect(nextPoint(points, 2, 4, 'ArrowLeft')).toBe(1);
    expect(nextPoint(points, 2, 4, 'ArrowDown')).toBe(1);
    expect(nextPoint(points, 4, 4, 'ArrowRight')).toBe(4);
    expect(nextPoint(points, 0, 4, 'ArrowLeft')).toBe(0);
    expect(nextPoint(points, 2, 4, 'Home')).toBe(0);
    expect(nextPoint(points, 2, 4, 'End')).toBe(4);
  });

  it('starts beside the value on screen, inside the range or outside it', () => {
    expect(nextPoint(points, undefined, 4, 'ArrowRight')).toBe(3);
    expect(nextPoint(points, undefined, 4, 'ArrowLeft')).toBe(1);
    expect(nextPoint(points, undefined, 5, 'ArrowRight')).toBe(3);
    expect(nextPoint(points, undefined, 5, 'ArrowLeft')).toBe(2);
    expect(nextPoint(points, undefined, 128, 'ArrowRight')).toBe(4);
    expect(nextPoint(points, undefined, 128, 'ArrowLeft')).toBe(4);
    expect(nextPoint(points, undefined, 0, 'ArrowLeft')).toBe(0);
    expect(nextPoint(points, undefined, 0, 'ArrowRight')).toBe(0);
    expect(nextPoint(points, undefined, undefined, 'ArrowRight')).toBe(0);
    expect(nextPoint(points, undefined, undefined, 'ArrowLeft')).toBe(4);
  });

  it('moves nowhere without points or on other keys', () => {
    expect(nextPoint([], undefined, 4, 'ArrowRight')).toBeUndefined();
    expect(nextPoint(points, 2, 4, 'Enter')).toBeUndefined();
    expect(movesPoint('Enter')).toBe(false);
    expect(movesPoint('End')).toBe(true);
  });
});
