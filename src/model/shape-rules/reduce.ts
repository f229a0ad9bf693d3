// Shape rules: reduce ops.

import type { RuleTable } from './types';

/** Shape rules for reduce ops. */
export const reduceRules: RuleTable = {};
