// Shape rules: recurrent ops.

import type { RuleTable } from './types';

/** Shape rules for recurrent ops. */
export const recurrentRules: RuleTable = {};
