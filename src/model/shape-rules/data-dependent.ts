// Shape rules: data-dependent ops.

import type { RuleTable } from './types';

/** Shape rules for data-dependent ops. */
export const dataDependentRules: RuleTable = {};
