import { describe, expect, it } from 'vitest';
import { layeredLayout } from './layered';
import type { LayoutGraph } from './protocol';

/** ONNX's test-model shape: `fan` weight-like sources at the top, each feeding one node of a long chain. */
function fanGraph(chain: number, fan: number): LayoutGraph {
  const boxes = [
    ...Array.from({ length: fan }, (_, i) => ({ id: `w${i}`, width: 90, height: 40 })),
    ...Array.from({ length: chain }, (_, i) => ({ id: `n${i}`, width: 90, height: 40 })),
  ];
  const links = [
    ...Array.from({ length: chain - 1 }, (_, i) => ({ id: `c${i}`, source: `n${i}`, target: `n${i + 1}` })),
    ...Array.from({ length: fan }, (_, i) => ({ id: `f${i}`, source: `w${i}`, target: `n${Math.floor((i * chain) / fan)}` })),
  ];
  return { boxes, links };
}

describe('layeredLayout', () => {
  it('keeps a chain in a straight column when two boxes at the top feed every box of it (a mask, rotary tables)', () => {
    const chain = 12;
    const boxes = [{ id: 'mask', width: 170, height: 44 }, { id: 'rope', width: 160, height: 44 }, ...Array.from({ length: chain }, (_, i) => ({ id: `l${i}`, width: 174, height: 44 }))];
    const links = [
      ...Array.from({ length: chain - 1 }, (_, i) => ({ id: `c${i}`, source: `l${i}`, target: `l${i + 1}` })),
      ...Array.from({ length: chain }, (_, i) => ({ id: `m${i}`, source: 'mask', target: `l${i}` })),
      ...Array.from({ length: chain }, (_, i) => ({ id: `r${i}`, source: 'rope', target: `l${i}` })),
    ];
    const placed = layeredLayout({ boxes, links });
    const xs = new Set(placed.boxes.filter((b) => b.id.startsWith('l')).map((b) => Math.round(b.x)));
    expect([...xs]).toHaveLength(1);
  });

  it('places every box and routes every edge from its source to its target', () => {
    const graph: LayoutGraph = {
      boxes: [{ id: 'a', width: 60, height: 30 }, { id: 'g', width: 80, height: 40, padTop: 30, children: [{ id: 'b', width: 60, height: 30 }, { id: 'c', width: 60, height: 30 }] }, { id: 'd', width: 60, height: 30 }],
      links: [{ id: 'ab', source: 'a', target: 'b' }, { id: 'bc', source: 'b', target: 'c' }, { id: 'cd', source: 'c', target: 'd' }, { id: 'ad', source: 'a', target: 'd' }],
    };
    const placed = layeredLayout(graph);
    const at = new Map(placed.boxes.map((b) => [b.id, b]));
    expect([...at.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'g']);
    const g = at.get('g')!;
    for (const id of ['b', 'c']) {
      const b = at.get(id)!;
      expect(b.x >= g.x && b.y >= g.y + 30 && b.x + b.width <= g.x + g.width && b.y + b.height <= g.y + g.height).toBe(true);
    }
    expect(at.get('a')!.y).toBeLessThan(g.y);
    expect(at.get('d')!.y).toBeGreaterThan(g.y + g.height);
    const ad = placed.links.find((l) => l.id === 'ad')!;
    expect(ad.points.slice(0, 2)).toEqual([at.get('a')!.x + 30, at.get('a')!.y + 30]);
    expect(ad.points.slice(-2)).toEqual([at.get('d')!.x + 30, at.get('d')!.y]);
    expect(ad.points.length).toBeGreaterThan(4); // through the dummies beside the group
  });

  it('bounds dummies and sweeps whatever the input: long edges past the budget are drawn straight', () => {
    const limits = { maxDummies: 5_000, sweepWork: 200_000, maxSweeps: 6 };
    const placed = layeredLayout(fanGraph(4_000, 2_000), limits);
    expect(placed.stats.dummies).toBeLessThanOrEqual(limits.maxDummies);
    expect(placed.stats.straight).toBeGreaterThan(0);
    expect(placed.stats.sweeps).toBeLessThanOrEqual(Math.max(1, Math.floor(limits.sweepWork / 6_000)));
    expect(placed.boxes).toHaveLength(6_000);
    expect(placed.links.every((l) => l.points.length >= 4 && l.points.length <= 2 * 122)).toBe(true);
  });

  it('lays out within the default bounds when the fan is small enough', () => {
    const placed = layeredLayout(fanGraph(300, 100));
    expect(placed.stats.straight).toBe(0);
    expect(placed.stats.dummies).toBeGreaterThan(0);
  });
});
