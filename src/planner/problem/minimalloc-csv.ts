// Reads and writes placement problems in MiniMalloc's CSV format: header
// `id,lower,upper,size` in any order (or MiniMalloc's newer names
// `buffer,start,end,size`), optional `alignment` and `offset`, lifetimes
// half-open [lower, upper). Depends only on src/shared and problem types.

import { InputError } from '../../shared/errors';
import { decodeCsvIds, encodeCsvId, isPlainCsvId } from './csv-ids';
import { alignmentOf, type PlacementProblem, type PlanBuffer } from './problem';
import { MAX_EXACT_POWER } from '../../shared/format';

const REQUIRED = ['id', 'lower', 'upper', 'size'] as const;
const OPTIONAL = ['alignment', 'offset'] as const;
type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];
/** MiniMalloc's newer column names, read as the older ones. */
const SYNONYMS: Readonly<Record<string, Column>> = { buffer: 'id', start: 'lower', end: 'upper' };

/**
 * Parses a MiniMalloc CSV. An `offset` value fixes that buffer there; an
 * empty `alignment` or `offset` cell means none. Throws InputError('bad-csv')
 * naming the line and the value of the first malformed row.
 *
 * One pass over the text, one object per buffer: a file of millions of rows
 * (the CLI takes up to 512 MiB) is read in about a second per million rows.
 */
export function parseMinimallocCsv(text: string): PlacementProblem {
  let header: Header | undefined;
  const buffers: ParsedBuffer[] = [];
  const lines: number[] = [];
  forEachRecord(text.replace(/^\uFEFF/, ''), (record, line) => {
    if (isBlank(record)) return;
    if (header === undefined) header = parseHeader(record, line);
    else {
      buffers.push(parseRow(record, line, header, buffers.length));
      lines.push(line);
    }
  });
  if (header === undefined) throw new InputError('bad-csv', 'the CSV is empty: expected a header id,lower,upper,size');
  const names = decodeCsvIds(buffers.map((buffer) => buffer.name));
  const seen = new Set<string>();
  for (let b = 0; b < buffers.length; b++) {
    const name = names[b]!;
    if (seen.size === seen.add(name).size) {
      const earlier = lines[names.indexOf(name)]!;
      throw new InputError('bad-csv', `line ${lines[b]}: ${header.label.id} "${name}" already used on line ${earlier}`);
    }
    buffers[b]!.name = name;
  }
  return { buffers };
}

/** A buffer as a row gives it; its name is decoded once every row is read (see csv-ids.ts). */
type ParsedBuffer = { -readonly [K in keyof PlanBuffer]: PlanBuffer[K] };

/** Whether a record is blank: nothing but white space (skipped, as a trailing line break is). */
function isBlank(record: string): boolean {
  const first = record.charCodeAt(0);
  return !(first > 0x20 && first < 0x7f) && record.trim() === '';
}

/** The columns in file order, and each column's name as the file writes it (for messages). */
interface Header {
  readonly columns: readonly Column[];
  readonly label: Readonly<Partial<Record<Column, string>>>;
  readonly at: Readonly<Record<Column, number>>; // each column's position in a row, -1 when the file lacks it
}

function parseHeader(line: string, lineNumber: number): Header {
  const written = splitCsvLine(line, lineNumber).map((cell) => cell.trim().toLowerCase());
  const known: readonly string[] = [...REQUIRED, ...OPTIONAL];
  const names = written.map((name) => (Object.hasOwn(SYNONYMS, name) ? SYNONYMS[name]! : name));
  names.forEach((name, i) => {
    if (!known.includes(name)) {
      throw new InputError('bad-csv', `line ${lineNumber}: unknown column "${written[i]}" in the header (expected ${known.join(', ')}, or buffer, start, end for id, lower, upper)`);
    }
    const first = names.indexOf(name);
    if (first !== i) {
      const same = written[first] === written[i] ? `column "${written[i]}" appears twice` : `columns "${written[first]}" and "${written[i]}" both give the ${name}`;
      throw new InputError('bad-csv', `line ${lineNumber}: ${same} in the header`);
    }
  });
  for (const name of REQUIRED) {
    if (names.includes(name)) continue;
    const other = Object.keys(SYNONYMS).find((written) => SYNONYMS[written] === name);
    throw new InputError('bad-csv', `line ${lineNumber}: the header lacks the column "${name}"${other === undefined ? '' : ` (or "${other}")`}`);
  }
  const columns = names as Column[];
  const at = Object.fromEntries(known.map((c) => [c, columns.indexOf(c as Column)])) as Record<Column, number>;
  return { columns, label: Object.fromEntries(columns.map((c, i) => [c, written[i]!])), at };
}

function parseRow(line: string, lineNumber: number, { columns, label, at }: Header, id: number): ParsedBuffer {
  // a row without quotes is its cells between commas, as splitCsvLine reads it
  const cells = line.includes('"') ? splitCsvLine(line, lineNumber) : line.split(',');
  if (cells.length !== columns.length) {
    const names = columns.map((c) => label[c]!).join(',');
    throw new InputError('bad-csv', `line ${lineNumber}: expected ${columns.length} values (${names}), found ${cells.length}`);
  }
  // an id is kept exactly as typed, spaces included (the writer quotes an id with spaces at an end); numbers are read trimmed
  const name = cells[at.id]!; // as written: the file's ids are decoded together
  if (name === '') throw new InputError('bad-csv', `line ${lineNumber}: the ${label.id} is empty`);
  const start = integerCell(numberCell(cells, at.lower), label.lower!, lineNumber, 0);
  const end = integerCell(numberCell(cells, at.upper), label.upper!, lineNumber, 0);
  if (end <= start) throw new InputError('bad-csv', `line ${lineNumber}: ${label.upper} ${end} is not above ${label.lower} ${start}`);
  const size = integerCell(numberCell(cells, at.size), 'size', lineNumber, 0);
  const alignment = optionalCell(numberCell(cells, at.alignment), 'alignment', lineNumber, 1);
  const fixedOffset = optionalCell(numberCell(cells, at.offset), 'offset', lineNumber, 0);
  if (alignment !== undefined && fixedOffset !== undefined && fixedOffset % alignment !== 0) {
    throw new InputError('bad-csv', `line ${lineNumber}: offset ${fixedOffset} is not a multiple of alignment ${alignment}`);
  }
  return {
    id,
    name,
    size,
    start,
    end,
    ...(alignment !== undefined && { alignment }),
    ...(fixedOffset !== undefined && { fixedOffset }),
  };
}

/** A number's cell, trimmed; undefined when the row lacks it (or the file the column). */
function numberCell(cells: readonly string[], at: number): string | undefined {
  return at < 0 ? undefined : cells[at]?.trim();
}

function optionalCell(text: string | undefined, column: string, lineNumber: number, min: number): number | undefined {
  return text === undefined || text === '' ? undefined : integerCell(text, column, lineNumber, min);
}

function integerCell(text: string | undefined, column: string, lineNumber: number, min: number): number {
  // plain digits, few enough to be exact: the cells of almost every file
  if (text !== undefined && text.length > 0 && text.length <= 15) {
    let value = 0;
    let k = 0;
    for (; k < text.length; k++) {
      const digit = text.charCodeAt(k) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (k === text.length && value >= min) return value;
  }
  return checkedIntegerCell(text, column, lineNumber, min);
}

function checkedIntegerCell(text: string | undefined, column: string, lineNumber: number, min: number): number {
  if (text === undefined || text === '') throw new InputError('bad-csv', `line ${lineNumber}: the ${column} value is missing`);
  const digits = /^[+-]?\d+$/.test(text);
  const value = digits ? Number(text) : NaN;
  if (digits && !Number.isSafeInteger(value)) {
    // 2^53 itself is past the cap: the largest whole number held exactly is 2^53 − 1
    const limit = value < 0 ? `−(${MAX_EXACT_POWER}) (${-Number.MAX_SAFE_INTEGER}), the most negative` : `${MAX_EXACT_POWER} (${Number.MAX_SAFE_INTEGER}), the largest`;
    throw new InputError('bad-csv', `line ${lineNumber}: ${column} "${text}" is past ${limit} whole number heapscope can hold exactly`);
  }
  if (!Number.isSafeInteger(value)) throw new InputError('bad-csv', `line ${lineNumber}: ${column} "${text}" is not an integer`);
  if (value < min) {
    const rule = min === 0 ? 'is negative' : `is below ${min}`;
    throw new InputError('bad-csv', `line ${lineNumber}: ${column} ${value} ${rule}`);
  }
  return value;
}

/**
 * Calls `visit` with each record (its text without the line break) and the
 * line it starts on. Records split at line breaks outside double quotes, so a
 * quoted value may hold a newline (the writer quotes such names). A quote left
 * open runs to the end, where splitCsvLine reports it.
 */
function forEachRecord(text: string, visit: (record: string, line: number) => void): void {
  let quoted = false;
  let start = 0;
  let line = 1;
  let startLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted;
    else if (c === 0x0a) {
      if (!quoted) {
        visit(text.slice(start, i > start && text.charCodeAt(i - 1) === 0x0d ? i - 1 : i), startLine);
        start = i + 1;
        startLine = line + 1;
      }
      line++;
    }
  }
  visit(text.slice(start), startLine);
}

/**
 * Splits one CSV record; double-quoted cells may hold commas and doubled quotes (spaces around the quotes are
 * dropped), unquoted cells are as typed, spaces included.
 */
function splitCsvLine(line: string, lineNumber: number): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    const start = i;
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote < 0) throw new InputError('bad-csv', `line ${lineNumber}: a quoted value is not closed`);
        value += line.slice(i, quote);
        i = quote + 1;
        if (line[i] !== '"') break;
        value += '"';
        i++;
      }
      cells.push(value);
      const comma = line.indexOf(',', i);
      if (line.slice(i, comma < 0 ? undefined : comma).trim() !== '') {
        throw new InputError('bad-csv', `line ${lineNumber}: text after a quoted value`);
      }
      if (comma < 0) return cells;
      i = comma + 1;
    } else {
      const comma = line.indexOf(',', start);
      cells.push(line.slice(start, comma < 0 ? undefined : comma));
      if (comma < 0) return cells;
      i = comma + 1;
    }
  }
}

/**
 * Writes `problem` with `offsets` filled in: columns id,lower,upper,size, then
 * alignment when any buffer needs one, then offset (no offset column when
 * `offsets` is undefined: the problem alone). Regions and aliases have no
 * column; their effect is in the offsets.
 */
export function writeMinimallocCsv(problem: PlacementProblem, offsets: readonly number[] | undefined): string {
  const aligned = problem.buffers.some((buffer) => alignmentOf(problem, buffer) !== 1);
  const header = ['id', 'lower', 'upper', 'size', ...(aligned ? ['alignment'] : []), ...(offsets === undefined ? [] : ['offset'])];
  const lines = [header.join(',')];
  problem.buffers.forEach((buffer, b) => {
    let line = `${quoteCell(buffer.name)},${buffer.start},${buffer.end},${buffer.size}`;
    if (aligned) line += `,${alignmentOf(problem, buffer)}`;
    if (offsets !== undefined) line += `,${offsets[b] ?? ''}`;
    lines.push(line);
  });
  return lines.join('\n') + '\n';
}

/** A cell as the writer writes it: the id encoded inert (see csv-ids.ts), quoted when it must be. */
export function quoteCell(text: string): string {
  if (isPlainCsvId(text) && !text.includes('"') && !text.includes(',') && text.charCodeAt(0) !== 0x20 && text.charCodeAt(text.length - 1) !== 0x20) return text;
  const encoded = encodeCsvId(text);
  return /[",\r\n]|^\s|\s$/.test(encoded) ? `"${encoded.replace(/"/g, '""')}"` : encoded;
}
