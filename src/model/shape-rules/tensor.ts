// Shape rules: tensor ops.

import type { RuleTable } from './types';

/** Shape rules for tensor ops. */
export const tensorRules: RuleTable = {};
