import { describe, expect, it } from 'vitest';
import { createLayoutClient } from './client';
import { ELK_BOX_LIMIT } from './engine';
import type { GraphPlacement, LayoutGraph } from './protocol';

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
