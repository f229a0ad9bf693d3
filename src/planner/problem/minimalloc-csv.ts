// Reads and writes placement problems in MiniMalloc's CSV format: header
// `id,lower,upper,size` in any order (or MiniMalloc's newer names
// `buffer,start,end,size`), optional `alignment` and `offset`, lifetimes
// half-open [lower, upper). Depends only on src/shared and problem types.

import { InputError } from '../../shared/errors';
import { decodeCsvIds, encodeCsvId } from './csv-ids';
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
 */
export function parseMinimallocCsv(text: string): PlacementProblem {
  const records = csvRecords(text.replace(/^\uFEFF/, '')).filter((record) => record.text.trim() !== '');
  const header = records[0];
  if (header === undefined) throw new InputError('bad-csv', 'the CSV is empty: expected a header id,lower,upper,size');
  const columns = parseHeader(header.text, header.line);
  const rows = records.slice(1).map(({ text: row, line }, id) => ({ line, buffer: parseRow(row, line, columns, id) }));
  const names = decodeCsvIds(rows.map((r) => r.buffer.name));
  const seen = new Map<string, number>();
  rows.forEach(({ line }, b) => {
    const earlier = seen.get(names[b]!);
    if (earlier !== undefined) throw new InputError('bad-csv', `line ${line}: ${columns.label.id} "${names[b]}" already used on line ${earlier}`);
    seen.set(names[b]!, line);
  });
  return { buffers: rows.map(({ buffer }, b) => ({ ...buffer, name: names[b]! })) };
}

/** The columns in file order, and each column's name as the file writes it (for messages). */
interface Header {
  readonly columns: readonly Column[];
  readonly label: Readonly<Partial<Record<Column, string>>>;
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
  return { columns, label: Object.fromEntries(columns.map((c, i) => [c, written[i]!])) };
}

function parseRow(line: string, lineNumber: number, { columns, label }: Header, id: number): PlanBuffer {
  const cells = splitCsvLine(line, lineNumber);
  if (cells.length !== columns.length) {
    const names = columns.map((c) => label[c]!).join(',');
    throw new InputError('bad-csv', `line ${lineNumber}: expected ${columns.length} values (${names}), found ${cells.length}`);
  }
  // an id is kept exactly as typed, spaces included (the writer quotes an id with spaces at an end); numbers are read trimmed
  const cell = (name: Column) => {
    const text = cells[columns.indexOf(name)];
    return name === 'id' ? text : text?.trim();
  };
  const name = cell('id')!; // as written: the file's ids are decoded together
  if (name === '') throw new InputError('bad-csv', `line ${lineNumber}: the ${label.id} is empty`);
  const start = integerCell(cell('lower'), label.lower!, lineNumber, 0);
  const end = integerCell(cell('upper'), label.upper!, lineNumber, 0);
  if (end <= start) throw new InputError('bad-csv', `line ${lineNumber}: ${label.upper} ${end} is not above ${label.lower} ${start}`);
  const size = integerCell(cell('size'), 'size', lineNumber, 0);
  const alignment = optionalCell(cell('alignment'), 'alignment', lineNumber, 1);
  const fixedOffset = optionalCell(cell('offset'), 'offset', lineNumber, 0);
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

function optionalCell(text: string | undefined, column: string, lineNumber: number, min: number): number | undefined {
  return text === undefined || text === '' ? undefined : integerCell(text, column, lineNumber, min);
}

function integerCell(text: string | undefined, column: string, lineNumber: number, min: number): number {
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

/** One CSV record: its text (without the line break) and the line it starts on. */
interface CsvRecord {
  readonly text: string;
  readonly line: number;
}

/**
 * Splits the text into records at line breaks outside double quotes, so a
 * quoted value may hold a newline (the writer quotes such names). A quote left
 * open runs to the end, where splitCsvLine reports it.
 */
function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let quoted = false;
  let start = 0;
  let line = 1;
  let startLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted;
    else if (c === 0x0a) {
      if (!quoted) {
        records.push({ text: text.slice(start, i > start && text.charCodeAt(i - 1) === 0x0d ? i - 1 : i), line: startLine });
        start = i + 1;
        startLine = line + 1;
      }
      line++;
    }
  }
  records.push({ text: text.slice(start), line: startLine });
  return records;
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
  const rows = problem.buffers.map((buffer, b) => {
    const cells = [quoteCell(buffer.name), buffer.start, buffer.end, buffer.size];
    if (aligned) cells.push(alignmentOf(problem, buffer));
    if (offsets !== undefined) cells.push(offsets[b] ?? '');
    return cells.join(',');
  });
  return [header.join(','), ...rows].join('\n') + '\n';
}

/** A cell as the writer writes it: the id encoded inert (see csv-ids.ts), quoted when it must be. */
export function quoteCell(text: string): string {
  const encoded = encodeCsvId(text);
  return /[",\r\n]|^\s|\s$/.test(encoded) ? `"${encoded.replace(/"/g, '""')}"` : encoded;
}
