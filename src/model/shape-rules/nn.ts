// Shape rules: nn ops.

import type { RuleTable } from './types';

/** Shape rules for nn ops. */
export const nnRules: RuleTable = {};
