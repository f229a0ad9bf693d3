import { describe, expect, it } from 'vitest';
import { checkGrowthRange } from './growth-range';

describe('checkGrowthRange', () => {
  it("says 'from' must be below 'to' when that is all that is wrong, and nothing of whole numbers", () => {
    const { error } = checkGrowthRange({ from: '64', to: '8' });
    expect(error).toBe("'from' (64) must be below 'to' (8)");
    expect(checkGrowthRange({ from: '8', to: '8' }).error).toBe("'from' (8) must be below 'to' (8)");
  });

  it('names the end that is not a whole number in range, as typed', () => {
    expect(checkGrowthRange({ from: '1.5', to: '8' }).error).toBe("'from' (1.5) must be a whole number from 0 to 1048576");
    expect(checkGrowthRange({ from: '1', to: '2000000' }).error).toBe("'to' (2000000) must be a whole number from 0 to 1048576");
    expect(checkGrowthRange({ from: '1', to: ' ' }).error).toBe("'to' is empty: give a whole number from 0 to 1048576");
  });

  it('accepts a range of whole numbers, from below to', () => {
    expect(checkGrowthRange({ from: ' 8 ', to: '64' })).toEqual({ from: 8, to: 64 });
  });
});
