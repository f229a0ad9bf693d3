// The client's side of a budgeted plan: a fresh stop URL per request with a
// budget (none without), revoked by stopSearch without dropping the request,
// and revoked when the request settles; search progress reaches the listener.

import { describe, expect, it, vi } from 'vitest';
import { createModelClient, type PortFactory, type StopUrls } from './client';
import { DEFAULT_SETTINGS as CPU } from '../settings/names';
import type { PlanResult, SearchProgress, WorkerRequest, WorkerResponse } from './protocol';

/** A port the test answers by hand, and stop URLs that count what is made and revoked. */
function setup() {
  const requests: WorkerRequest[] = [];
  let respond: (response: WorkerResponse) => void = () => undefined;
  const factory: PortFactory = (onResponse) => {
    respond = onResponse;
    return { post: (request) => void requests.push(request), terminate: () => undefined };
  };
  let made = 0;
  const revoked: string[] = [];
  const stopUrls: StopUrls = { create: () => `blob:stop-${++made}`, revoke: (url) => void revoked.push(url) };
  const client = createModelClient(factory, stopUrls);
  return { client, requests, revoked, respond: (r: WorkerResponse) => respond(r) };
}

const BUDGETED = { ...CPU, budgetMs: 5000 };
const SEARCH: SearchProgress = { elapsedMs: 1200, budgetMs: 5000, peak: 900, bound: 800, stoppable: true };
/** A plan answer; the client passes it on untouched, so its content does not matter here. */
const PLANNED = { status: 'failed', settings: BUDGETED, error: { code: 'x', message: 'stand-in' } } as PlanResult;

describe('model client with a search budget', () => {
  it('sends a stop URL only with a budget', () => {
    const { client, requests } = setup();
    void client.replan(CPU);
    void client.replan(BUDGETED);
    expect(requests.filter((r) => r.type === 'replan').map((r) => (r.type === 'replan' ? r.stop : 'none'))).toEqual([undefined, 'blob:stop-1']);
  });

  it('stops the search by revoking its URL, keeps the request, and passes search progress on', async () => {
    const { client, requests, revoked, respond } = setup();
    const progress = vi.fn();
    const outcome = client.replan(BUDGETED, progress);
    const id = requests[0]!.id;
    respond({ type: 'progress', id, fraction: 0.24, label: 'Searching for a smaller plan', search: SEARCH });
    expect(progress).toHaveBeenLastCalledWith(0.24, 'Searching for a smaller plan', SEARCH);
    expect(client.stopSearch()).toBe(true);
    expect(revoked).toEqual(['blob:stop-1']);
    expect(client.stopSearch()).toBe(false); // once only
    respond({ type: 'planned', id, plan: PLANNED });
    expect(await outcome).toEqual({ status: 'done', result: PLANNED });
    expect(revoked).toEqual(['blob:stop-1']);
    expect(requests.map((r) => r.type)).toEqual(['replan']);
  });

  it('revokes the URL of a request that settles or is cancelled, and has nothing to stop without a budget', async () => {
    const { client, requests, revoked, respond } = setup();
    const first = client.replan(BUDGETED);
    respond({ type: 'planned', id: requests[0]!.id, plan: PLANNED });
    await first;
    expect(revoked).toEqual(['blob:stop-1']);
    const second = client.replan(BUDGETED);
    client.cancel();
    expect(await second).toEqual({ status: 'cancelled' });
    expect(revoked).toEqual(['blob:stop-1', 'blob:stop-2']);
    void client.replan(CPU);
    expect(client.stopSearch()).toBe(false);
  });
});
