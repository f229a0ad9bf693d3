// The hooks of a plan made with a search budget, in the worker: the progress of
// best's search (time spent, best peak so far and proven bound), posted at most
// every PROGRESS_MS, and the stop the page asks for through the request's stop
// URL (stop-signal.ts), asked at most every POLL_MS. Inert once their request
// has planned, so suggestion steps planned later with the same options never
// post or stop. No DOM.

import type { PlanOptions } from '../../planner/strategies/strategy';
import type { StopProbe } from '../stop-signal';
import type { SearchProgress, StopUrl } from '../protocol';

/** The planner options a budgeted plan passes on: its progress and stop callbacks. */
export type PlanHooks = Pick<PlanOptions, 'onProgress' | 'shouldStop'>;

/** Smallest time between two search progress messages, in ms. */
export const PROGRESS_MS = 200;
/** Smallest time between two questions to the stop URL, in ms (each costs a synchronous request). */
export const POLL_MS = 100;

/** What searchHooks needs. */
export interface SearchHookInput {
  readonly budgetMs: number;
  readonly stop: StopUrl | undefined;
  readonly probe: StopProbe;
  readonly now: () => number;
  readonly post: (search: SearchProgress) => void;
}

/** The hooks of one request, and the switch that makes them inert. */
export interface SearchHooks {
  readonly hooks: PlanHooks;
  /** After this, progress is not posted and the search is never stopped. */
  finish(): void;
}

/** Hooks that report the search of one plan request and stop it when the page revokes its stop URL. */
export function searchHooks({ budgetMs, stop, probe, now, post }: SearchHookInput): SearchHooks {
  const started = now();
  const first = stop === undefined ? undefined : probe(stop);
  const stoppable = first !== undefined;
  let stopped = first === true;
  let active = true;
  let lastPoll = started;
  let lastPost = -Infinity;
  let peak: number | undefined;
  let bound: number | undefined;
  const send = (at: number): void => {
    lastPost = at;
    post({ elapsedMs: at - started, budgetMs, peak, bound, stoppable });
  };
  send(started);
  return {
    hooks: {
      onProgress: (p) => {
        if (!active) return;
        peak = p.peak;
        bound = p.bound;
        send(now());
      },
      shouldStop: () => {
        if (!active) return false;
        const at = now();
        if (stoppable && !stopped && at - lastPoll >= POLL_MS) {
          lastPoll = at;
          stopped = probe(stop!) === true;
        }
        if (at - lastPost >= PROGRESS_MS) send(at);
        return stopped;
      },
    },
    finish: () => {
      active = false;
    },
  };
}
