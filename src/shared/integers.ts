// Whole-number arithmetic shared by the planner's alignment and packing code.
// No dependencies.

/** The greatest common divisor of two whole numbers (gcd(0, b) = b). */
export function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
