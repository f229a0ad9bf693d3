// The hooks of a budgeted plan: progress at most every PROGRESS_MS, the stop
// URL asked at most every POLL_MS, and nothing once their request has planned.

import { describe, expect, it } from 'vitest';
import { POLL_MS, PROGRESS_MS, searchHooks } from './search';
import type { SearchProgress } from '../protocol';
import { NO_STOP_PROBE, type StopProbe } from '../stop-signal';

/** Hooks over a clock the test moves and a probe that says whether the page revoked the URL ('blob:gone' always is). */
function setup(stop: string | undefined, probe?: StopProbe) {
  const state = { at: 1000, revoked: false, probes: 0 };
  const posted: SearchProgress[] = [];
  const counted = (url: string) => {
    state.probes += 1;
    return probe === undefined ? url === 'blob:gone' || state.revoked : probe(url);
  };
  const search = searchHooks({ budgetMs: 5000, stop, probe: counted, now: () => state.at, post: (p) => posted.push(p) });
  return { state, posted, search, ...search.hooks };
}

describe('search hooks', () => {
  it('post the start at once, then the best peak and bound as the search reports them', () => {
    const { state, posted, onProgress } = setup('blob:live');
    expect(posted).toEqual([{ elapsedMs: 0, budgetMs: 5000, peak: undefined, bound: undefined, stoppable: true }]);
    state.at += 30;
    onProgress!({ peak: 900, bound: 800, fraction: 0 });
    expect(posted.at(-1)).toEqual({ elapsedMs: 30, budgetMs: 5000, peak: 900, bound: 800, stoppable: true });
  });

  it('ask the stop URL at most every POLL_MS and stop once it is revoked', () => {
    const { state, shouldStop } = setup('blob:live');
    expect(state.probes).toBe(1); // readable at the start: the search can be stopped
    expect(shouldStop!()).toBe(false);
    expect(state.probes).toBe(1);
    state.at += POLL_MS;
    expect(shouldStop!()).toBe(false);
    expect(state.probes).toBe(2);
    state.revoked = true;
    state.at += POLL_MS / 2;
    expect(shouldStop!()).toBe(false);
    state.at += POLL_MS / 2;
    expect(shouldStop!()).toBe(true);
    expect(shouldStop!()).toBe(true);
    expect(state.probes).toBe(3);
  });

  it('send a heartbeat with the time spent while the search only polls', () => {
    const { state, posted, shouldStop } = setup('blob:live');
    state.at += PROGRESS_MS - 1;
    shouldStop!();
    expect(posted).toHaveLength(1);
    state.at += 1;
    shouldStop!();
    expect(posted.map((p) => p.elapsedMs)).toEqual([0, PROGRESS_MS]);
  });

  it('stop at once when the page revoked the URL before planning began', () => {
    const { shouldStop, posted } = setup('blob:gone');
    expect(posted[0]?.stoppable).toBe(true);
    expect(shouldStop!()).toBe(true);
  });

  it('cannot be stopped without a stop URL or where the URL cannot be asked', () => {
    for (const { stop, probe } of [{ stop: undefined, probe: NO_STOP_PROBE }, { stop: 'blob:live', probe: NO_STOP_PROBE }]) {
      const { state, posted, shouldStop } = setup(stop, probe);
      state.at += 10 * POLL_MS;
      expect(shouldStop!()).toBe(false);
      expect(posted.every((p) => !p.stoppable)).toBe(true);
    }
  });

  it('do nothing once their request has planned', () => {
    const { state, posted, search, shouldStop, onProgress } = setup('blob:live');
    search.finish();
    state.revoked = true;
    state.at += 10 * PROGRESS_MS;
    onProgress!({ peak: 1, bound: 1, fraction: 1 });
    expect(shouldStop!()).toBe(false);
    expect(posted).toHaveLength(1);
  });
});
