// The plan settings a link asks for, checked against the target presets: a
// parameter whose value parses but makes no plan (an unknown target or
// strategy, a region the target does not have, an alignment that is no power
// of two, weights in a region that does not exist) is left out on its own and
// named, so that the rest of the link still applies.

import { usableSettings, type LeftOut } from '../settings/usable';
import type { PlanSettings } from '../worker/protocol';
import { NO_EXTRAS, writeExtras } from './url-settings';
import { ownValue } from '../shared/own';

/** The settings of a link that make a plan, and the parameters left out. */
export interface CheckedLinkSettings {
  readonly settings: Partial<PlanSettings>; // what the link gives and makes a plan; a left-out target is absent
  readonly ignored: readonly string[]; // each parameter left out, as "key=value: why"
}

/**
 * Checks the settings `wanted` of a link whose parameters carry `prefix` ("b." for a comparison's B); a
 * left-out parameter is quoted as `typed` (the link's values by parameter) has it, as the person wrote it.
 */
export function checkLinkSettings(wanted: Partial<PlanSettings>, prefix = '', typed: Readonly<Record<string, string>> = {}): CheckedLinkSettings {
  const { settings, leftOut } = usableSettings(wanted);
  return { settings, ignored: leftOut.map((left) => `${parameterOf(left, prefix, typed)}: ${left.reason}`) };
}

/** The parameter that carried a left-out setting, with the value the link gave it (else as the page writes it). */
function parameterOf({ part }: LeftOut, prefix: string, typed: Readonly<Record<string, string>>): string {
  const params = new URLSearchParams();
  if (part.target !== undefined) params.set('target', part.target);
  if (part.strategy !== undefined) params.set('strategy', part.strategy);
  writeExtras({ ...NO_EXTRAS, edits: part.edits, budgetMs: part.budgetMs }, params);
  return [...params].map(([key, value]) => `${prefix}${key}=${ownValue(typed, `${prefix}${key}`) ?? value}`).join('&');
}
