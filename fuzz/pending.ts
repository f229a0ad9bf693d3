// Findings that belong to open planner work of issue 17 (items 1 and 5: offsets
// or peaks past 2^53, and fixed offsets that overlap, which must become exact
// plans or typed input errors; item 8: zero-size buffers counted at their offsets). The bounded runs in the suite tolerate these
// classes only, so any other finding fails them. Depends on planner/.

import { parseMinimallocCsv } from '../src/planner/minimalloc-csv';
import type { CampaignFinding } from './campaign';

/** True when the finding names a number at or past 2^53 − 1: arithmetic past the exact limit. */
function pastExactLimit(finding: CampaignFinding): boolean {
  return (finding.message.match(/\d{16,}/g) ?? []).some((n) => Number(n) >= Number.MAX_SAFE_INTEGER);
}

/**
 * True when the problem's sizes add past 2^53, a zero-size buffer has a fixed
 * offset, or two fixed buffers live together overlap in address.
 */
function pendingProblem(csv: string): boolean {
  const { buffers } = parseMinimallocCsv(csv);
  if (buffers.reduce((sum, b) => sum + b.size, 0) >= Number.MAX_SAFE_INTEGER) return true;
  if (buffers.some((b) => b.size === 0 && (b.fixedOffset ?? 0) > 0)) return true;
  const fixed = buffers.filter((b) => b.fixedOffset !== undefined && b.size > 0);
  return fixed.some((a, i) =>
    fixed.slice(i + 1).some((b) => a.start < b.end && b.start < a.end && a.fixedOffset! < b.fixedOffset! + b.size && b.fixedOffset! < a.fixedOffset! + a.size),
  );
}

/** True when the finding is of a class issue 17 items 1, 5 and 8 cover. */
export function isPendingFinding(finding: CampaignFinding): boolean {
  if (pastExactLimit(finding)) return true;
  return typeof finding.input === 'string' && pendingProblem(finding.input);
}
