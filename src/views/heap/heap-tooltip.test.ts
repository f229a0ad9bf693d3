import { describe, expect, it } from 'vitest';
import { cardPosition } from './heap-tooltip';

describe('cardPosition', () => {
  it('puts the card below right of the pointer when it fits', () => {
    expect(cardPosition({ x: 10, y: 20 }, 100, 50, 400, 300)).toEqual({ x: 24, y: 34 });
  });

  it('flips the card left of and above the pointer near the right and bottom edges', () => {
    expect(cardPosition({ x: 350, y: 280 }, 100, 50, 400, 300)).toEqual({ x: 236, y: 216 });
  });

  it('keeps a card wider or taller than the room beside the pointer inside the area', () => {
    expect(cardPosition({ x: 100, y: 100 }, 300, 250, 320, 260)).toEqual({ x: 20, y: 10 });
    expect(cardPosition({ x: 100, y: 100 }, 500, 400, 320, 260)).toEqual({ x: 0, y: 0 });
  });
});
