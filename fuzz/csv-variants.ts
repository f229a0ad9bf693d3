// MiniMalloc CSV problems for `solve`, in every form the reader accepts and
// some it must refuse, reproducible from a seed: headers id,lower,upper,size or
// buffer,start,end,size in any order and case, with optional alignment and
// offset columns; ids quoted with commas, quotes and newlines, or shaped like
// spreadsheet formulas; LF, CRLF, CR-only and mixed line ends; a byte order
// mark; empty, padded and huge cells; and now and then a wide problem of more
// than 20,000 buffers all live at once. Depends on the fuzz random source.

import type { Rng } from './random';

/** One generated problem: its text and how it was made. */
export interface CsvCase {
  readonly kind: 'plain' | 'variant' | 'malformed' | 'wide';
  readonly label: string;
  readonly text: string;
}

type Column = 'id' | 'lower' | 'upper' | 'size' | 'alignment' | 'offset';

/** Each column's names as files write them. */
const NAMES: Readonly<Record<Column, readonly string[]>> = {
  id: ['id', 'buffer', 'ID', ' Buffer '],
  lower: ['lower', 'start', 'Lower'],
  upper: ['upper', 'end', 'UPPER'],
  size: ['size', 'Size'],
  alignment: ['alignment'],
  offset: ['offset'],
};

/** Ids as a person or a spreadsheet writes them, with their quoted form. */
const HOSTILE_IDS: readonly string[] = ['a,b', 'line\nbreak', 'say "hi"', '=cmd|\' /C calc\'!A0', '+1', '-x', '@sum', "'=quoted", '\ttab', ' padded ', 'π', '__proto__', 'constructor'];

function quoted(id: string, rng: Rng): string {
  return /[",\r\n]|^\s|\s$/.test(id) || rng.chance(0.2) ? `"${id.replace(/"/g, '""')}"` : id;
}

/** A cell of a buffer: usually its value, now and then padded; malformed ones come from `malformedCell`. */
function cell(rng: Rng, value: number): string {
  return rng.chance(0.05) ? ` ${value} ` : rng.chance(0.03) ? `+${value}` : String(value);
}

function malformedCell(rng: Rng): string {
  return rng.pick(['', '-1', '1.5', '1e3', '9007199254740993', '99999999999999999999', 'x', '0x10', '"', '""', '\u0000', 'Infinity']);
}

/** Joins rows with the line end the case uses (LF, CRLF, CR only, or a mix). */
function joinLines(rng: Rng, rows: readonly string[]): { text: string; ends: string } {
  const ends = rng.pick(['lf', 'lf', 'lf', 'lf', 'crlf', 'crlf', 'crlf', 'cr', 'mixed']);
  const end = () => (ends === 'lf' ? '\n' : ends === 'crlf' ? '\r\n' : ends === 'cr' ? '\r' : rng.pick(['\n', '\r\n', '\r']));
  return { text: rows.map((r) => r + end()).join('') + (rng.chance(0.1) ? end() + end() : ''), ends };
}

/** Problem `index`: a few buffers in a random column form; malformed now and then; wide when `wide`. */
export function randomCsv(rng: Rng, wide = false): CsvCase {
  if (wide) return wideCsv(rng);
  const optional = (['alignment', 'offset'] as const).filter(() => rng.chance(0.35));
  const columns: Column[] = ['id', 'lower', 'upper', 'size', ...optional];
  for (let i = columns.length - 1; i > 0 && rng.chance(0.6); i--) {
    const j = rng.int(0, i);
    [columns[i], columns[j]] = [columns[j]!, columns[i]!];
  }
  const malformed = rng.chance(0.15);
  const count = rng.int(1, rng.chance(0.9) ? 12 : 200);
  const steps = rng.int(1, count + 1);
  const huge = rng.chance(0.05);
  const rows = [columns.map((c) => rng.pick(NAMES[c])).join(',')];
  const used = new Set<string>();
  for (let b = 0; b < count; b++) {
    const start = rng.int(0, steps - 1);
    const alignment = rng.pick([1, 2, 8, 64, 4096]);
    const size = huge && rng.chance(0.4) ? rng.pick([2 ** 40, 2 ** 52, 2 ** 53 - 1]) : rng.chance(0.1) ? 0 : rng.int(1, 1 << 16);
    let id = rng.chance(0.1) ? rng.pick(HOSTILE_IDS) : `b${b}`;
    if (used.has(id)) id = `b${b}`;
    used.add(id);
    const values: Record<Column, string> = {
      id: quoted(id, rng),
      lower: cell(rng, start),
      upper: cell(rng, rng.int(start + 1, steps + 1)),
      size: cell(rng, size),
      alignment: rng.chance(0.3) ? '' : cell(rng, alignment),
      offset: rng.chance(0.85) ? '' : cell(rng, alignment * rng.int(0, 64)),
    };
    if (malformed && rng.chance(0.3)) values[rng.pick(columns)] = malformedCell(rng);
    rows.push(columns.map((c) => values[c]).join(','));
  }
  if (malformed && rng.chance(0.3)) rows.splice(rng.int(0, rows.length - 1), 1, rng.pick(['id,lower,upper', 'a,b,c,d,e,f,g', 'id,lower,upper,size,bogus', '', ',,,']));
  const { text, ends } = joinLines(rng, rows);
  const bom = rng.chance(0.1) ? '\uFEFF' : '';
  const kind = malformed ? 'malformed' : columns.join(',') === 'id,lower,upper,size' && ends === 'lf' && bom === '' ? 'plain' : 'variant';
  return { kind, label: `${count} buffers, ${rows[0]!.trim()}, ${ends}${bom ? ', BOM' : ''}${huge ? ', huge sizes' : ''}`, text: bom + text };
}

/** More than 20,000 buffers live at once (a few short-lived ones among them), for the validator at scale. */
export function wideCsv(rng: Rng): CsvCase {
  const count = rng.int(20_001, 24_000);
  const rows = ['buffer,start,end,size'];
  for (let b = 0; b < count; b++) rows.push(`w${b},${rng.chance(0.05) ? rng.int(0, 2) : 0},${rng.chance(0.05) ? 3 : 4},${rng.int(1, 64) * 16}`);
  return { kind: 'wide', label: `${count} buffers live at once`, text: rows.join('\n') + '\n' };
}
