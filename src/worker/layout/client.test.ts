import { describe, expect, it } from 'vitest';
import { createLayoutClient, type LayoutWorker } from './client';
import { ELK_BOX_LIMIT } from './engine';
import type { GraphPlacement, LayoutGraph, LayoutRequest, LayoutResponse } from './protocol';

function chain(count: number): LayoutGraph {
  return {
    boxes: Array.from({ length: count }, (_, i) => ({ id: `n${i}`, width: 60, height: 30 })),
    links: Array.from({ length: count - 1 }, (_, i) => ({ id: `e${i}`, source: `n${i}`, target: `n${i + 1}` })),
  };
}

describe('createLayoutClient (without Worker: on this thread)', () => {
  it('settles with the final placement after handing over the layered preview of a graph ELK lays out', async () => {
    const client = createLayoutClient();
    const previews: GraphPlacement[] = [];
    const outcome = await client.layout(chain(ELK_BOX_LIMIT), 'auto', (p) => previews.push(p));
    expect(previews.map((p) => p.engine)).toEqual(['layered']);
    expect(outcome.status).toBe('done');
    expect(outcome.status === 'done' && outcome.placement.engine).toBe('elk');
    expect(outcome.status === 'done' && outcome.placement.boxes).toHaveLength(ELK_BOX_LIMIT);
  });

  it('answers only the newest request; an older one is superseded', async () => {
    const client = createLayoutClient();
    const older = client.layout(chain(5));
    const newer = client.layout(chain(3));
    expect((await older).status).toBe('superseded');
    const outcome = await newer;
    expect(outcome.status === 'done' && outcome.placement.boxes.map((b) => b.id)).toEqual(['n0', 'n1', 'n2']);
    client.dispose();
  });
});

/** A stand-in worker: answers with `respond`, or fails as a worker whose script did not load. */
class FakeWorker {
  onmessage: ((event: MessageEvent<LayoutResponse>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  readonly requests: LayoutRequest[] = [];
  constructor(private readonly respond: ((request: LayoutRequest, reply: (r: LayoutResponse) => void) => void) | 'fail') {}
  postMessage(request: LayoutRequest): void {
    this.requests.push(request);
    setTimeout(() => {
      if (this.terminated) return;
      if (this.respond === 'fail') this.onerror?.({ message: '', preventDefault: () => undefined } as unknown as ErrorEvent);
      else this.respond(request, (r) => this.onmessage?.({ data: r } as MessageEvent<LayoutResponse>));
    }, 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('createLayoutClient (over a worker)', () => {
  it('lays out on this thread when the worker fails, saying so', async () => {
    const workers: FakeWorker[] = [];
    const client = createLayoutClient(() => {
      workers.push(new FakeWorker('fail'));
      return workers.at(-1)! as unknown as LayoutWorker;
    });
    const outcome = await client.layout(chain(2000));
    expect(outcome.status).toBe('done');
    if (outcome.status !== 'done') return;
    expect(outcome.placement.engine).toBe('layered');
    expect(outcome.placement.boxes).toHaveLength(2000);
    expect(outcome.placement.note).toMatch(/layout worker failed/);
    expect(workers[0]!.terminated).toBe(true);
    // The next request gets a fresh worker.
    await client.layout(chain(3));
    expect(workers).toHaveLength(2);
  });

  it('keeps the preview past the budget without restarting the worker, which stays for the next request', async () => {
    const placed = (request: LayoutRequest, engine: GraphPlacement['engine']): GraphPlacement => ({ boxes: request.graph.boxes.map((b) => ({ id: b.id, x: 0, y: 0, width: b.width, height: b.height })), links: [], width: 1, height: 1, engine, ms: 1 });
    let finishSlow: (() => void) | undefined;
    const workers: FakeWorker[] = [];
    const client = createLayoutClient(() => {
      workers.push(
        new FakeWorker((request, reply) => {
          reply({ type: 'placed', id: request.id, placement: placed(request, 'layered'), final: false });
          // The first request's final answer (ELK) comes only when the test says so.
          if (request.id === 1) finishSlow = () => reply({ type: 'placed', id: request.id, placement: placed(request, 'elk'), final: true });
          else reply({ type: 'placed', id: request.id, placement: placed(request, 'elk'), final: true });
        }),
      );
      return workers.at(-1)! as unknown as LayoutWorker;
    });
    const first = await client.layout(chain(5), 'auto', undefined, 10);
    expect(first.status === 'done' && first.placement.engine).toBe('layered');
    expect(first.status === 'done' && first.placement.note).toMatch(/more than/);
    expect(workers[0]!.terminated).toBe(false);
    // A spare warms up while ELK finishes; once ELK is done the worker is free again and the spare goes.
    expect(workers).toHaveLength(2);
    finishSlow!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(workers[1]!.terminated).toBe(true);
    const second = await client.layout(chain(4), 'auto', undefined, 10_000);
    expect(second.status === 'done' && second.placement.engine).toBe('elk');
    expect(workers).toHaveLength(2);
    expect(workers[0]!.requests).toHaveLength(2);
  });

  it('hands a request that comes while ELK still finishes to the warm spare, not to a cold worker', async () => {
    const workers: FakeWorker[] = [];
    const placed = (request: LayoutRequest, engine: GraphPlacement['engine']): GraphPlacement => ({ boxes: [], links: [], width: 1, height: 1, engine, ms: 1 });
    const client = createLayoutClient(() => {
      workers.push(
        new FakeWorker((request, reply) => {
          reply({ type: 'placed', id: request.id, placement: placed(request, 'layered'), final: false });
          // The first request's ELK never finishes.
          if (request.id !== 1) reply({ type: 'placed', id: request.id, placement: placed(request, 'elk'), final: true });
        }),
      );
      return workers.at(-1)! as unknown as LayoutWorker;
    });
    await client.layout(chain(5), 'auto', undefined, 10);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.requests).toHaveLength(0); // started, not used yet
    const second = await client.layout(chain(3), 'auto', undefined, 10_000);
    expect(second.status === 'done' && second.placement.engine).toBe('elk');
    expect(workers[0]!.terminated).toBe(true);
    expect(workers[1]!.requests.map((r) => r.id)).toEqual([2]);
    expect(workers).toHaveLength(2); // no cold worker was started
    client.dispose();
    expect(workers.every((w) => w.terminated)).toBe(true);
  });
});
