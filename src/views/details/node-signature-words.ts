// Words of a node's signature, as Netron lists them: each attribute's value
// (numbers, lists, strings) and each input's and output's dtype and shape.
// Pure; no DOM.

import type { InferredValue, NodeAttribute } from '../../model/inferred';
import { formatShape } from '../../shared/format';

/** List items shown before the rest are counted. */
const LIST_ITEMS = 16;
/** Characters of a string attribute shown before it is cut. */
const STRING_CHARS = 80;

/** A number as written: integers whole, others to 6 significant digits. */
function numberText(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

/** An attribute's value in words: `3`, `[1, 1, 1, 1]`, `NOTSET`; long lists and strings are cut. */
export function attributeText(value: NodeAttribute): string {
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'string') return value.length > STRING_CHARS ? `${value.slice(0, STRING_CHARS)}…` : value;
  const shown = value.slice(0, LIST_ITEMS).map(numberText).join(', ');
  return `[${shown}${value.length > LIST_ITEMS ? `, … ${value.length - LIST_ITEMS} more` : ''}]`;
}

/** A node's attributes by name, in name order; empty when it has none. */
export function attributeRows(attributes: Readonly<Record<string, NodeAttribute>> | undefined): readonly { readonly name: string; readonly text: string }[] {
  if (attributes === undefined) return [];
  return Object.keys(attributes)
    .sort()
    .map((name) => ({ name, text: attributeText(attributes[name]!) }));
}

/** A tensor's type as Netron writes it: `float32[1×3×224×224]`, `?` parts when unknown. */
export function tensorType(value: InferredValue | undefined): string {
  if (value === undefined) return '?';
  const shape = formatShape(value.shape);
  return `${value.dtypeName}${shape === 'scalar' ? ' scalar' : `[${shape}]`}${value.upperBound === true ? ' (at most)' : ''}`;
}
