// Shape rules: elementwise ops.

import type { RuleTable } from './types';

/** Shape rules for elementwise ops. */
export const elementwiseRules: RuleTable = {};
