// A short preview of a JSON value for an error sentence, in time and stack
// bounded by the preview's length, whatever the value's depth or width (a
// hand-edited file may nest arrays 100,000 deep). No dependencies.

/** Levels shown before a nested array or object is written as […] or {…}. */
const MAX_DEPTH = 4;

/** How a number too large for a double (JSON.parse's Infinity) is shown: the file said a number, not null. */
const OUT_OF_RANGE = 'Infinity (a number out of range)';

/** The value as JSON, cut to at most `max` characters (an ellipsis marks the cut). */
export function previewJson(value: unknown, max = 60): string {
  const out: string[] = [];
  let length = 0;
  const push = (text: string): boolean => {
    out.push(text);
    length += text.length;
    return length <= max;
  };
  write(value, 0, push);
  const text = out.join('');
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Writes `value`; stops early (returns false) once `push` says the budget is spent. */
function write(value: unknown, depth: number, push: (text: string) => boolean): boolean {
  if (value === undefined) return push('undefined');
  if (value === null || typeof value !== 'object') return push(primitive(value));
  const isArray = Array.isArray(value);
  if (depth >= MAX_DEPTH) return push(isArray ? '[…]' : '{…}');
  if (!push(isArray ? '[' : '{')) return false;
  const entries: [string | undefined, unknown][] = isArray ? (value as unknown[]).map((v) => [undefined, v]) : Object.entries(value);
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i]!;
    if (i > 0 && !push(',')) return false;
    if (key !== undefined && !push(`${JSON.stringify(key)}:`)) return false;
    if (!write(item, depth + 1, push)) return false;
  }
  return push(isArray ? ']' : '}');
}

function primitive(value: unknown): string {
  if (typeof value === 'bigint') return `${value}`;
  // JSON.parse reads a number past the doubles (1e400) as Infinity, which JSON.stringify would write as null
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : `${value < 0 ? '-' : ''}${OUT_OF_RANGE}`;
  if (typeof value === 'string' && value.length > 200) return JSON.stringify(value.slice(0, 200));
  return JSON.stringify(value) ?? String(value);
}
