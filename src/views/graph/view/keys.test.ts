import { describe, expect, it } from 'vitest';
import type { PlacedBox } from '../../../worker/layout/protocol';
import type { GraphEdge } from '../layout/layout-input';
import { nextBox } from './keys';

/**
 *        in (100,0)
 *       /          \
 *   a (0,100)    b (200,100)   c (400,100, not linked)
 *       \          /
 *        d (100,200)
 * Every box 80 × 40.
 */
const box = (id: string, x: number, y: number): PlacedBox => ({ id, x, y, width: 80, height: 40 });
const boxes = [box('in', 100, 0), box('a', 0, 100), box('b', 200, 100), box('c', 400, 100), box('d', 100, 200)];
const edge = (source: string, target: string): [string, GraphEdge] => [`${source}>${target}`, { id: `${source}>${target}`, source, target, values: [], text: '' }];
const input = { edges: new Map([edge('in', 'a'), edge('in', 'b'), edge('a', 'd'), edge('b', 'd')]) };

describe('nextBox', () => {
  it('goes down and up along the edges, to the nearest consumer or producer', () => {
    expect(nextBox(boxes, input, 'in', 'ArrowDown')).toBe('a'); // a and b are as near: the first
    expect(nextBox(boxes, input, 'a', 'ArrowDown')).toBe('d');
    expect(nextBox(boxes, input, 'd', 'ArrowUp')).toBe('a');
    expect(nextBox(boxes, input, 'b', 'ArrowUp')).toBe('in');
  });

  it('without an edge that way, goes to the nearest box below or above', () => {
    expect(nextBox(boxes, input, 'c', 'ArrowDown')).toBe('d');
    expect(nextBox(boxes, input, 'c', 'ArrowUp')).toBe('in');
    expect(nextBox(boxes, input, 'd', 'ArrowDown')).toBeUndefined();
    expect(nextBox(boxes, input, 'in', 'ArrowUp')).toBeUndefined();
  });

  it('goes left and right along the row first', () => {
    expect(nextBox(boxes, input, 'a', 'ArrowRight')).toBe('b');
    expect(nextBox(boxes, input, 'b', 'ArrowRight')).toBe('c');
    expect(nextBox(boxes, input, 'b', 'ArrowLeft')).toBe('a');
    expect(nextBox(boxes, input, 'c', 'ArrowRight')).toBeUndefined();
    // Nothing beside "in" on its row: the nearest box to that side.
    expect(nextBox(boxes, input, 'in', 'ArrowRight')).toBe('b');
  });

  it('knows no box it is not given', () => {
    expect(nextBox(boxes, input, 'nowhere', 'ArrowDown')).toBeUndefined();
  });
});
