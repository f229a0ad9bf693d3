// Shape rules: microsoft ops.

import type { RuleTable } from './types';

/** Shape rules for microsoft ops. */
export const microsoftRules: RuleTable = {};
