import { describe, expect, it } from 'vitest';
import { ELK_BOX_LIMIT, LAYERED_BOX_LIMIT, runLayout, runLayoutSteps } from './engine';
import type { GraphPlacement, LayoutGraph, PlacedBox } from './protocol';

/** in -> a -> [cluster: b -> c] -> d, plus a -> d; a labelled edge into the cluster. */
const GRAPH: LayoutGraph = {
  boxes: [
    { id: 'in', width: 80, height: 30 },
    { id: 'a', width: 100, height: 40 },
    { id: 'k', width: 120, height: 40, padTop: 30, children: [{ id: 'b', width: 90, height: 40 }, { id: 'c', width: 90, height: 40 }] },
    { id: 'd', width: 100, height: 40 },
  ],
  links: [
    { id: 'in>a', source: 'in', target: 'a' },
    { id: 'a>b', source: 'a', target: 'b', label: { text: '1×8 · 32 B', width: 60, height: 14 } },
    { id: 'b>c', source: 'b', target: 'c' },
    { id: 'c>d', source: 'c', target: 'd' },
    { id: 'a>d', source: 'a', target: 'd' },
  ],
};

function byId(p: GraphPlacement): Map<string, PlacedBox> {
  return new Map(p.boxes.map((b) => [b.id, b]));
}

function inside(inner: PlacedBox, outer: PlacedBox): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

describe.each(['elk', 'layered', 'simple'] as const)('runLayout (%s)', (engine) => {
  it('places every box top-down, clusters around their members, edges from source to target', async () => {
    const placed = await runLayout(GRAPH, engine);
    expect(placed.engine).toBe(engine);
    const boxes = byId(placed);
    expect([...boxes.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'in', 'k']);
    const [a, b, c, d, k] = ['a', 'b', 'c', 'd', 'k'].map((id) => boxes.get(id)!);
    expect(inside(b!, k!) && inside(c!, k!)).toBe(true);
    expect(b!.y - k!.y).toBeGreaterThanOrEqual(20); // room for the cluster's title
    expect(a!.y + a!.height).toBeLessThanOrEqual(b!.y);
    expect(c!.y + c!.height).toBeLessThanOrEqual(d!.y);
    for (const box of placed.boxes) {
      expect(box.x + box.width).toBeLessThanOrEqual(placed.width + 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(placed.height + 0.5);
    }
    const edge = placed.links.find((l) => l.id === 'a>b')!;
    const [x0, y0] = edge.points;
    const [x1, y1] = edge.points.slice(-2);
    expect(y0).toBeCloseTo(a!.y + a!.height, 0);
    expect(x0).toBeGreaterThanOrEqual(a!.x);
    expect(x0).toBeLessThanOrEqual(a!.x + a!.width);
    expect(y1).toBeCloseTo(b!.y, 0);
    expect(x1).toBeGreaterThanOrEqual(b!.x);
    expect(x1).toBeLessThanOrEqual(b!.x + b!.width);
    expect(edge.labelY).toBeGreaterThanOrEqual(a!.y + a!.height - 1);
    expect(edge.labelY! + 14).toBeLessThanOrEqual(b!.y + 1);
  });
});

/** A chain of `count` boxes. */
function chainGraph(count: number): LayoutGraph {
  return {
    boxes: Array.from({ length: count }, (_, i) => ({ id: `n${i}`, width: 60, height: 30 })),
    links: Array.from({ length: count - 1 }, (_, i) => ({ id: `e${i}`, source: `n${i}`, target: `n${i + 1}` })),
  };
}

describe('runLayoutSteps', () => {
  it('delivers the layered layout as a preview before ELK', async () => {
    const got: [string, boolean][] = [];
    await runLayoutSteps(GRAPH, 'auto', (p, final) => got.push([p.engine, final]));
    expect(got).toEqual([['layered', false], ['elk', true]]);
  });

  it('delivers one final placement for a graph beyond ELK or an explicit engine', async () => {
    const got: [string, boolean][] = [];
    await runLayoutSteps(chainGraph(ELK_BOX_LIMIT + 1), 'auto', (p, final) => got.push([p.engine, final]));
    await runLayoutSteps(chainGraph(5), 'simple', (p, final) => got.push([p.engine, final]));
    expect(got).toEqual([['layered', true], ['simple', true]]);
  });
});

describe('runLayout (auto)', () => {
  it('uses ELK for a small graph, the layered layout up to its limit and the simple layout beyond, saying why', async () => {
    expect((await runLayout(GRAPH, 'auto')).engine).toBe('elk');
    const chain = chainGraph(ELK_BOX_LIMIT + 1);
    const placed = await runLayout(chain, 'auto');
    expect(placed.engine).toBe('layered');
    const boxes = byId(placed);
    expect(boxes.get(`n${ELK_BOX_LIMIT}`)!.y).toBeGreaterThan(boxes.get('n0')!.y + 30 * ELK_BOX_LIMIT);
    const huge = await runLayout(chainGraph(LAYERED_BOX_LIMIT + 1), 'auto');
    expect(huge.engine).toBe('simple');
    expect(huge.note).toMatch(/more than 10,000 boxes/);
  });
});
