// Shape rules: control ops.

import type { RuleTable } from './types';

/** Shape rules for control ops. */
export const controlRules: RuleTable = {};
