// The URL parameters beyond model, dims (../store/dim-params.ts), strategy and target, so that a link
// reopens the same plan and view: target field edits (region.NAME.limit,
// region.NAME.align, fusion, units, cache, sram for the fusion SRAM, sizes read
// as the settings fields read them (store/field-text.ts), order for
// the execution-order policy, scratch for the scratch placement, spill=on|off
// for spilling along the memory map, weights=flash|REGION|copy-to:REGION and
// io=arena|application for where weights and graph I/O are), best's search budget in ms (budget), tensor shapes (shape.NAME), graph
// input values (input.NAME), the selection (select=node:NAME | buffer:ID |
// step:N), the graph's collapsed groups (groups=open|closed as the starting
// point instead of the first view, then group.ID=open|closed for each group
// that differs from it) and, for a local file, its name (file=), which must be
// opened again.

import { IO_OWNERS, ORDER_POLICIES, readWeightsText, SCRATCH_PLACEMENTS, SPILL_MODES, weightsText } from '../planner/explain/target-change';
import { nullRecord } from '../shared/own';
import type { GroupView, Selection } from '../store/state';
import { isBudgetMs } from '../settings/names';
import { parseBytesField } from '../store/field-text';
import type { InputValues, RegionEdit, ShapeValues, TargetEdits } from '../worker/protocol';
import { booleanWord } from '../shared/input-words';

/** What a link carries besides the model, dims, strategy and target. */
export interface LinkExtras {
  readonly shapes: ShapeValues;
  readonly inputValues: InputValues;
  readonly edits: TargetEdits | undefined; // changes to the target preset's fields
  readonly budgetMs: number | undefined; // best's search budget; undefined: the default
  readonly selection: Selection | undefined;
  readonly groups: GroupView | undefined; // the graph's collapsed groups; undefined: its first view
  readonly file: string | undefined; // a local file the link was made for: it must be opened again
}

/** No extras. */
export const NO_EXTRAS: LinkExtras = { shapes: {}, inputValues: {}, edits: undefined, budgetMs: undefined, selection: undefined, groups: undefined, file: undefined };

const SHAPE = 'shape.';
const INPUT = 'input.';
const REGION = 'region.';
const GROUP = 'group.';
const SWITCHES = { fusion: 'fusion', units: 'computeUnits' } as const;

/** True for a parameter this module reads (and rewrites). */
export function isExtraKey(key: string): boolean {
  return key.startsWith(SHAPE) || key.startsWith(INPUT) || key.startsWith(REGION) || key.startsWith(GROUP) || ['fusion', 'units', 'cache', 'sram', 'order', 'scratch', 'spill', 'weights', 'io', 'budget', 'select', 'groups', 'file'].includes(key);
}

/** "a, b or c": the values a parameter takes. */
const oneOf = (values: readonly string[]): string => (values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)!}`);

const wholeNumber = (text: string): number | undefined => (/^\d+$/.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER ? Number(text) : undefined);

/** Reads the extras from URL parameters; values that do not parse are pushed to `ignored` as "key=value". */
export function readExtras(params: URLSearchParams, ignored: string[]): LinkExtras {
  const shapes = nullRecord<readonly number[]>();
  const inputValues = nullRecord<readonly number[]>();
  const regions = nullRecord<RegionEdit>();
  const edits: { -readonly [K in keyof TargetEdits]: TargetEdits[K] } = {};
  let selection: Selection | undefined;
  const groups = { from: 'first' as GroupView['from'], open: [] as string[], closed: [] as string[], given: false };
  let budgetMs: number | undefined;
  for (const [key, raw] of params) {
    const text = raw.trim();
    const bad = (why: string): void => void ignored.push(`${key}=${raw}: ${why}`);
    if (key.startsWith(SHAPE)) {
      const dims = text === '' ? [] : text.split('x').map(wholeNumber);
      if (key.length === SHAPE.length) bad('a shape parameter is shape.TENSOR=DIMS, and this one names no tensor');
      else if (dims.every((d) => d !== undefined)) shapes[key.slice(SHAPE.length)] = dims as number[];
      else bad('a shape is whole numbers joined by x, as 1x3x224x224');
    } else if (key.startsWith(INPUT)) {
      // true and false as the page's value fields and --input take them: a bool's 1 and 0
      const values = text.split(',').map((v) => booleanWord(v) ?? (v.trim() === '' ? NaN : Number(v)));
      if (key.length === INPUT.length) bad('an input parameter is input.NAME=VALUES, and this one names no input');
      else if (values.every(Number.isFinite)) inputValues[key.slice(INPUT.length)] = values;
      else bad('an input value is numbers (or true, false) joined by commas, as 16000 or 1,0,1');
    } else if (key.startsWith(REGION)) {
      const why = readRegionEdit(key.slice(REGION.length), text, regions);
      if (why !== undefined) ignored.push(`${key}=${raw}: ${why}`);
    } else if (key === 'fusion' || key === 'units') {
      if (text === '0' || text === '1') edits[SWITCHES[key]] = text === '1';
      else bad(`${key} is 0 (off) or 1 (on)`);
    } else if (key === 'cache' || key === 'sram') {
      const bytes = parseBytesField(key === 'cache' ? 'dw-pw cache bytes' : 'fusion SRAM bytes', text);
      if (bytes.ok) edits[key === 'cache' ? 'dwPwCacheBytes' : 'sramBytes'] = bytes.value!;
      else bad(bytes.error);
    } else if (key === 'order') {
      const order = ORDER_POLICIES.find((o) => o === text);
      if (order !== undefined) edits.order = order;
      else bad(`the order is ${oneOf(ORDER_POLICIES)}`);
    } else if (key === 'scratch') {
      const placement = SCRATCH_PLACEMENTS.find((p) => p === text);
      if (placement !== undefined) edits.scratchPlacement = placement;
      else bad(`the scratch placement is ${oneOf(SCRATCH_PLACEMENTS)}`);
    } else if (key === 'spill') {
      const spill = SPILL_MODES.find((m) => m === text);
      if (spill !== undefined) edits.spill = spill;
      else bad(`spill is ${oneOf(SPILL_MODES)}`);
    } else if (key === 'weights') {
      const weights = readWeightsText(text);
      if (weights !== undefined) edits.weights = weights;
      else bad('weights is flash, a region name, or copy-to:REGION');
    } else if (key === 'io') {
      const io = IO_OWNERS.find((o) => o === text);
      if (io !== undefined) edits.io = io;
      else bad(`io is ${oneOf(IO_OWNERS)}`);
    } else if (key === 'budget') {
      const ms = wholeNumber(text);
      if (ms !== undefined && isBudgetMs(ms)) budgetMs = ms;
      else bad('a search budget is a whole number of milliseconds from 1 up');
    } else if (key === 'select') {
      selection = readSelection(text);
      if (selection === undefined) bad('a selection is node:NAME, buffer:ID or step:N');
    } else if (key === 'groups' || key.startsWith(GROUP)) {
      const why = readGroup(key, text, groups);
      if (why !== undefined) bad(why);
    }
  }
  if (Object.keys(regions).length > 0) edits.regions = regions;
  const file = params.get('file')?.trim();
  const view = groups.given ? { from: groups.from, open: groups.open, closed: groups.closed } : undefined;
  return { shapes, inputValues, edits: Object.keys(edits).length > 0 ? edits : undefined, budgetMs, selection, groups: view, file: file ? file : undefined };
}

/** Reads `groups=open|closed` or `group.ID=open|closed` into `groups`; why not, when it does not parse. */
function readGroup(key: string, text: string, groups: { from: GroupView['from']; open: string[]; closed: string[]; given: boolean }): string | undefined {
  if (key === GROUP) return 'a group parameter is group.ID=open|closed, and this one names no group';
  if (text !== 'open' && text !== 'closed') return `${key === 'groups' ? 'groups' : 'a group'} is open or closed`;
  if (key === 'groups') groups.from = text;
  else groups[text].push(key.slice(GROUP.length));
  groups.given = true;
  return undefined;
}

/**
 * Reads `NAME.limit=SIZE|none` or `NAME.align=SIZE` into `regions`, a size as
 * the settings fields read it (100KiB, 4M, 65536); why not, in the field's words, when it does not parse.
 */
function readRegionEdit(rest: string, text: string, regions: Record<string, RegionEdit>): string | undefined {
  const dot = rest.lastIndexOf('.');
  const name = rest.slice(0, dot);
  const field = rest.slice(dot + 1);
  if (dot <= 0 || (field !== 'limit' && field !== 'align')) return 'a region field is region.NAME.limit or region.NAME.align';
  const edit = regions[name] ?? {};
  if (field === 'limit' && text === 'none') {
    regions[name] = { ...edit, sizeLimit: 'none' };
    return undefined;
  }
  const bytes = parseBytesField(`${name} ${field === 'limit' ? 'size limit' : 'alignment'}`, text);
  // An empty size limit field means no limit; in a link that is written none.
  if (!bytes.ok) return field === 'limit' ? `${bytes.error}; none: no limit` : bytes.error;
  regions[name] = field === 'limit' ? { ...edit, sizeLimit: bytes.value! } : { ...edit, alignment: bytes.value! };
  return undefined;
}

function readSelection(text: string): Selection | undefined {
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (kind === 'node' && rest !== '') return { kind: 'node', node: rest };
  const n = wholeNumber(rest);
  if (n === undefined) return undefined;
  if (kind === 'buffer') return { kind: 'buffer', buffer: n };
  if (kind === 'step') return { kind: 'step', step: n };
  return undefined;
}

/** A selection as the page writes it in a link's `select=`: node:NAME, buffer:ID or step:N. */
export function selectionText(s: Selection): string {
  return s.kind === 'node' ? `node:${s.node}` : s.kind === 'buffer' ? `buffer:${s.buffer}` : `step:${s.step}`;
}

/** Writes the extras into `params`, names in sorted order so the same view always gives the same link. */
export function writeExtras(extras: LinkExtras, params: URLSearchParams): void {
  const sorted = <T>(record: Readonly<Record<string, T>>): string[] => Object.keys(record).sort();
  for (const name of sorted(extras.shapes)) params.set(`${SHAPE}${name}`, extras.shapes[name]!.join('x'));
  for (const name of sorted(extras.inputValues)) params.set(`${INPUT}${name}`, extras.inputValues[name]!.join(','));
  const edits = extras.edits;
  if (edits !== undefined) {
    const regions = edits.regions ?? {};
    for (const name of sorted(regions)) {
      const edit = regions[name]!;
      if (edit.sizeLimit !== undefined) params.set(`${REGION}${name}.limit`, String(edit.sizeLimit));
      if (edit.alignment !== undefined) params.set(`${REGION}${name}.align`, String(edit.alignment));
    }
    if (edits.fusion !== undefined) params.set('fusion', edits.fusion ? '1' : '0');
    if (edits.computeUnits !== undefined) params.set('units', edits.computeUnits ? '1' : '0');
    if (edits.dwPwCacheBytes !== undefined) params.set('cache', String(edits.dwPwCacheBytes));
    if (edits.sramBytes !== undefined) params.set('sram', String(edits.sramBytes));
    if (edits.order !== undefined) params.set('order', edits.order);
    if (edits.scratchPlacement !== undefined) params.set('scratch', edits.scratchPlacement);
    if (edits.spill !== undefined) params.set('spill', edits.spill);
    if (edits.weights !== undefined) params.set('weights', weightsText(edits.weights));
    if (edits.io !== undefined) params.set('io', edits.io);
  }
  if (extras.budgetMs !== undefined) params.set('budget', String(extras.budgetMs));
  const s = extras.selection;
  if (s !== undefined) params.set('select', selectionText(s));
  const groups = extras.groups;
  if (groups !== undefined) {
    if (groups.from !== 'first') params.set('groups', groups.from);
    const states = [...groups.open.map((id) => [id, 'open'] as const), ...groups.closed.map((id) => [id, 'closed'] as const)];
    for (const [id, state] of states.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) params.set(`${GROUP}${id}`, state);
  }
  if (extras.file !== undefined) params.set('file', extras.file);
}
