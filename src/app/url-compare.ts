// An open comparison in a link: compare=1 plans B as the model on screen with
// the settings of the parameters prefixed b. — b.target=, b.strategy=,
// b.dim.NAME=, b.shape.NAME=, b.input.NAME=, b.region.NAME.limit|align=,
// b.fusion=, b.units=, b.cache=, b.sram=, b.order=, b.scratch=, b.spill=,
// b.weights=, b.io= — read and written by the
// same code as A's. B's settings are whole, not changes from A's: a b.
// parameter left out is B's default, as the plain one is A's. Only B made from
// the shown model travels; another file or a saved plan cannot.

import { DEFAULT_SETTINGS } from '../settings/names';
import type { PlanSettings } from '../worker/protocol';
import type { SideBSettings } from '../store/compare-store';
import { NO_EXTRAS, readExtras, writeExtras } from './url-settings';
import { readDims, writeDims } from '../store/dim-params';

const B = 'b.';
/** B's parameters, without their prefix: the plan settings a comparison's B can differ in. */
const B_KEYS = new Set(['target', 'strategy', 'fusion', 'units', 'cache', 'sram', 'order', 'scratch', 'spill', 'weights', 'io']);
const B_PREFIXES = ['dim.', 'shape.', 'input.', 'region.'];

/** True for a parameter this module reads (and rewrites). */
export function isCompareKey(key: string): boolean {
  return key === 'compare' || key.startsWith(B);
}

/**
 * B of `compare=1` from the b. parameters, or undefined without a comparison;
 * values that do not parse, b. parameters of no setting and b. parameters
 * without compare=1 are pushed to `ignored` as "key=value".
 */
export function readCompare(params: URLSearchParams, ignored: string[]): SideBSettings | undefined {
  const flag = params.get('compare')?.trim();
  const on = flag === '1';
  if (flag !== undefined && !on) ignored.push(`compare=${params.get('compare')}: compare is 1, to open a comparison`);
  const own = new URLSearchParams();
  for (const [key, value] of params) {
    if (!key.startsWith(B)) continue;
    const rest = key.slice(B.length);
    const setting = B_KEYS.has(rest) || B_PREFIXES.some((p) => rest.startsWith(p));
    if (on && setting) own.append(rest, value);
    else if (!setting) ignored.push(`${key}=${value}: B is the model on screen planned again, and takes plan settings only (target, strategy, dim., shape., input., region. and the target's fields)`);
    else ignored.push(`${key}=${value}: b. parameters apply only with compare=1`);
  }
  if (!on) return undefined;
  const bad: string[] = [];
  const dims = readDims(own, bad);
  const { shapes, inputValues, edits } = readExtras(own, bad);
  ignored.push(...bad.map((entry) => `${B}${entry}`));
  const text = (key: string): string | undefined => own.get(key)?.trim() || undefined;
  const settings: PlanSettings = { target: text('target') ?? DEFAULT_SETTINGS.target, strategy: text('strategy'), ...(edits !== undefined && { edits }) };
  return { dims, shapes, inputValues, settings };
}

/** Writes compare=1 and B's settings as b. parameters, in the order and form of A's. */
export function writeCompare(b: SideBSettings, params: URLSearchParams): void {
  const own = new URLSearchParams();
  if (b.settings.target !== DEFAULT_SETTINGS.target) own.set('target', b.settings.target);
  if (b.settings.strategy !== undefined) own.set('strategy', b.settings.strategy);
  writeDims(b.dims, own);
  writeExtras({ ...NO_EXTRAS, shapes: b.shapes, inputValues: b.inputValues, edits: b.settings.edits }, own);
  params.set('compare', '1');
  for (const [key, value] of own) params.append(`${B}${key}`, value);
}
