// Shape rules for tensor-manipulation ops, with constant propagation of small
// values (the shape arithmetic of exported models). Each family lives in a
// tensor-*.ts file; this module gathers them. No DOM.

import type { RuleTable } from './types';
import { guardRules } from './tensor-facts';
import { shapeOpRules } from './tensor-shape';
import { indexOpRules } from './tensor-index';
import { combineOpRules } from './tensor-combine';
import { constOpRules } from './tensor-const';
import { logicOpRules } from './tensor-logic';
import { resizeOpRules } from './tensor-resize';
import { sequenceOpRules } from './tensor-sequence';

/** Shape rules for tensor ops: shape, indexing, joining, constants, logic, resampling, sequences. */
export const tensorRules: RuleTable = guardRules({
  ...shapeOpRules,
  ...indexOpRules,
  ...combineOpRules,
  ...constOpRules,
  ...logicOpRules,
  ...resizeOpRules,
  ...sequenceOpRules,
});
