// Names close to one the user typed, for a diagnostic's "did you mean": equal
// but for case and separators, or a few edits apart. Bounded: long names and
// names of very different lengths are skipped, so a model with a million
// values answers quickly. No DOM.

import { shortName } from './short-name';

/** Names longer than this are never suggested (and a longer typed name gets no suggestions). */
const MAX_COMPARED = 200;

/** Candidates read per question. */
const MAX_CANDIDATES = 100_000;

/** Lower case without the separators people drop or swap: `Seq_Len` and `seqlen` are one name. */
function folded(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.:/]+/g, '');
}

/**
 * Edit distance of `a` and `b` (insertions, deletions, substitutions and
 * swaps of neighbours) when it is at most `limit`, else undefined. Only cells
 * within `limit` of the diagonal are computed.
 */
export function editDistance(a: string, b: string, limit: number): number | undefined {
  if (Math.abs(a.length - b.length) > limit) return undefined;
  const far = limit + 1;
  const width = b.length + 1;
  // Three rows, i − 2, i − 1 and i, in one buffer.
  const rows = new Int32Array(3 * width).fill(far);
  for (let j = 0; j < width; j++) rows[j] = Math.min(j, far);
  for (let i = 1; i <= a.length; i++) {
    const cur = (i % 3) * width;
    const prev = ((i + 2) % 3) * width;
    const before = ((i + 1) % 3) * width;
    rows.fill(far, cur, cur + width);
    rows[cur] = Math.min(i, far);
    let best = rows[cur]!;
    const ai = a.charCodeAt(i - 1);
    for (let j = Math.max(1, i - limit); j <= Math.min(b.length, i + limit); j++) {
      const bj = b.charCodeAt(j - 1);
      let d = rows[prev + j - 1]! + (ai === bj ? 0 : 1);
      const del = rows[prev + j]! + 1;
      const ins = rows[cur + j - 1]! + 1;
      if (del < d) d = del;
      if (ins < d) d = ins;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && rows[before + j - 2]! + 1 < d) d = rows[before + j - 2]! + 1;
      rows[cur + j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return undefined;
  }
  const distance = rows[(a.length % 3) * width + b.length]!;
  return distance <= limit ? distance : undefined;
}

/**
 * Up to `max` of `candidates` close to `name`, closest first (ties by name):
 * equal once case and separators are dropped, or within an edit distance of
 * a third of the name's length (1 to 3). `name` itself is never suggested.
 */
export function closeNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const target = folded(name);
  if (target === '' || name.length > MAX_COMPARED) return [];
  const limit = Math.min(3, Math.max(1, Math.floor(target.length / 3)));
  const scored = new Map<string, number>();
  let read = 0;
  for (const candidate of candidates) {
    if (++read > MAX_CANDIDATES) break;
    if (candidate === name || candidate.length > MAX_COMPARED || scored.has(candidate)) continue;
    const distance = editDistance(target, folded(candidate), limit);
    if (distance !== undefined) scored.set(candidate, distance);
  }
  return [...scored]
    .sort(([a, da], [b, db]) => da - db || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, max)
    .map(([candidate]) => candidate);
}

/** " (did you mean 'a' or 'b'?)", or '' when nothing is close. Names are cut by shortName. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closeNames(name, candidates).map((c) => `'${shortName(c)}'`);
  if (close.length === 0) return '';
  const listed = close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close.at(-1)}`;
  return ` (did you mean ${listed}?)`;
}
