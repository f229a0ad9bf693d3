// The banner's dims form as data: the values typed so far, which fields the
// user changed, and the default dims derived from others, which follow them
// as the user types: a total length is the sequence plus the past, as the
// model layer's default rules derive it (and as the command-line tool binds
// it after --dim seq_len=16). Apply binds every field the form shows, a
// default left as it was too: the user saw the value and applied it, so the
// banner stops listing it. Pure.

import type { DimAssumption } from '../../planner/plan';
import { ownValue } from '../../shared/own';

/** The form's state. */
export interface DimsDraft {
  readonly values: Readonly<Record<string, string>>; // by dim name, as typed
  readonly changed: ReadonlySet<string>; // dims the user typed into
}

/** The role a default dim's rule gives it, for derivation; undefined when nothing derives from or into it. */
type DerivationRole = 'sequence' | 'past' | 'total';

/** The rule texts of the model layer's default dims (model/infer/dims.ts) that derivation reads. */
const ROLE_OF_RULE: readonly (readonly [string, DerivationRole])[] = [
  ['sequence axis', 'sequence'],
  ['past length', 'past'],
  ['total length', 'total'],
];

function roleOf(d: DimAssumption): DerivationRole | undefined {
  return ROLE_OF_RULE.find(([prefix]) => d.rule.startsWith(prefix))?.[1];
}

/** The form as it opens: every dim at its value, none changed. */
export function initialDraft(dims: readonly DimAssumption[]): DimsDraft {
  return { values: Object.fromEntries(dims.map((d) => [d.name, String(d.value)])), changed: new Set() };
}

/** The draft after the user typed `text` into `name`: derived dims the user has not typed into follow. */
export function typeDim(dims: readonly DimAssumption[], draft: DimsDraft, name: string, text: string): DimsDraft {
  const changed = new Set(draft.changed).add(name);
  const values: Record<string, string> = { ...draft.values, [name]: text };
  const number = (role: DerivationRole): number | undefined => {
    const d = dims.find((x) => roleOf(x) === role);
    if (d === undefined) return role === 'past' ? 0 : undefined;
    const v = values[d.name] ?? '';
    return /^\d{1,10}$/.test(v) ? Number(v) : undefined;
  };
  const sequence = number('sequence');
  const past = number('past');
  for (const d of dims) {
    if (roleOf(d) !== 'total' || changed.has(d.name) || sequence === undefined || past === undefined) continue;
    values[d.name] = String(sequence + past);
  }
  return { values, changed };
}

/** The dims a total length follows, for the field's title ("seq_len + past_seq_len"); undefined for other dims. */
export function derivedFrom(dims: readonly DimAssumption[], d: DimAssumption): string | undefined {
  if (roleOf(d) !== 'total') return undefined;
  const parts = dims.filter((x) => roleOf(x) === 'sequence' || roleOf(x) === 'past').map((x) => x.name);
  return parts.length === 0 ? undefined : parts.join(' + ');
}

/** What Apply binds: every dim of the form, in its order, each at the value `draft` shows for it. */
export function dimsToBind(dims: readonly DimAssumption[], draft: DimsDraft): readonly (readonly [DimAssumption, string])[] {
  return dims.map((d) => [d, ownValue(draft.values, d.name) ?? ''] as const);
}
