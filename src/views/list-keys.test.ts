import { describe, expect, it } from 'vitest';
import { listKeyTarget } from './list-keys';

describe('listKeyTarget', () => {
  const table = { wrap: false };
  const menu = { wrap: true };

  it('moves one item down or up, and Home and End go to the ends', () => {
    expect(listKeyTarget('ArrowDown', 3, 10, table)).toBe(4);
    expect(listKeyTarget('ArrowUp', 3, 10, table)).toBe(2);
    expect(listKeyTarget('Home', 7, 10, table)).toBe(0);
    expect(listKeyTarget('End', 2, 10, table)).toBe(9);
  });

  it('stops at the ends of a table and wraps round a menu', () => {
    expect(listKeyTarget('ArrowDown', 9, 10, table)).toBe(9);
    expect(listKeyTarget('ArrowUp', 0, 10, table)).toBe(0);
    expect(listKeyTarget('ArrowDown', 3, 4, menu)).toBe(0);
    expect(listKeyTarget('ArrowUp', 0, 4, menu)).toBe(3);
  });

  it('starts from the first item on ↓ and the last on ↑ when none is current', () => {
    expect(listKeyTarget('ArrowDown', -1, 5, table)).toBe(0);
    expect(listKeyTarget('ArrowUp', -1, 5, menu)).toBe(4);
    // a current index past the end (the rows were filtered since) counts as none
    expect(listKeyTarget('ArrowDown', 8, 5, table)).toBe(0);
  });

  it('takes no other key, and nothing in an empty list', () => {
    expect(listKeyTarget('Enter', 1, 5, table)).toBeUndefined();
    expect(listKeyTarget('ArrowRight', 1, 5, menu)).toBeUndefined();
    expect(listKeyTarget('ArrowDown', -1, 0, table)).toBeUndefined();
    expect(listKeyTarget('Home', -1, 0, menu)).toBeUndefined();
  });
});
