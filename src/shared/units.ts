// Distinct types for quantities that are easy to mix up. No dependencies.

declare const brand: unique symbol;
type Branded<T, B extends string> = T & { readonly [brand]: B };

/** A count of bytes. */
export type Bytes = Branded<number, 'bytes'>;
/** A position in the execution order. */
export type Step = Branded<number, 'step'>;

/** Marks a number as bytes. */
export const bytes = (n: number): Bytes => n as Bytes;
/** Marks a number as a step. */
export const step = (n: number): Step => n as Step;
