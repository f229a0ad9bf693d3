// The table of all shape rules, by `domain::OpType`. Each family lives in its own file.

import type { RuleTable } from './types';
import { elementwiseRules } from './elementwise';
import { nnRules } from './nn';
import { convRules } from './conv';
import { normRules } from './norm';
import { signalRules } from './signal';
import { miscRules } from './misc';
import { mlRules } from './ml';
import { reduceRules } from './reduce';
import { recurrentRules } from './recurrent';
import { tensorRules } from './tensor';
import { controlRules } from './control';
import { dataDependentRules } from './data-dependent';
import { microsoftRules } from './microsoft';
import { legacyRules } from './legacy';

/** Every shape rule heapscope knows. */
export const SHAPE_RULES: RuleTable = {
  ...elementwiseRules,
  ...nnRules,
  ...convRules,
  ...normRules,
  ...signalRules,
  ...miscRules,
  ...mlRules,
  ...reduceRules,
  ...recurrentRules,
  ...tensorRules,
  ...controlRules,
  ...dataDependentRules,
  ...microsoftRules,
  ...legacyRules,
};
