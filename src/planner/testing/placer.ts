// Test helper: how planModel places subgraph bodies and compute-unit
// variants, with the target's own strategy, for tests that build a problem
// directly. Imported by tests and benchmarks only.

import { stagePlacer } from '../assembly/stages';
import type { ProblemPlacer } from '../problem/build-problem';
import type { TargetProfile } from '../targets/target';

/** Places a problem with `target`'s strategy and returns its peak. */
export function placerOf(target: TargetProfile): ProblemPlacer {
  return stagePlacer({ strategy: target.planning.strategy });
}
