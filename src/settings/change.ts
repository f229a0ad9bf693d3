// The settings a change leads to, for the page's plan and for Compare's B
// alike. Depends only on the settings layer.

import { isEmptyEdits } from './target';
import type { PlanSettings } from './types';

/** The settings after `change`: a new target drops the edits of the old one; an undefined budget is the default. */
export function changeSettings(settings: PlanSettings, change: Partial<PlanSettings>): PlanSettings {
  const retarget = change.target !== undefined && change.target !== settings.target && !('edits' in change);
  const { budgetMs, ...next }: PlanSettings = { ...settings, ...change };
  const budgeted = budgetMs === undefined ? next : { ...next, budgetMs };
  if (retarget || budgeted.edits === undefined || isEmptyEdits(budgeted.edits)) {
    const { edits: _dropped, ...rest } = budgeted;
    return rest;
  }
  return budgeted;
}
