import { describe, expect, it } from 'vitest';
import { GRAPH_LEGEND, graphHeaderLayout, textWidth } from './graph-header';

describe('graph export header', () => {
  it('is as wide as a long title, so the title is not cut, and as wide as the graph when that is wider', () => {
    const title = 'llama-80-layers-with-a-kv-cache.onnx · peak 63.0 MiB · lower bound 62.5 MiB · best on cpu · graph';
    const narrow = graphHeaderLayout(title, 'Scale: 1040 × 600 px', ['operator'], 300);
    expect(narrow.width).toBeGreaterThanOrEqual(Math.ceil(textWidth(title, true) + 24));
    expect(narrow.width).toBeGreaterThan(520);
    expect(graphHeaderLayout(title, '', [], 4000).width).toBe(4000);
    expect(graphHeaderLayout('a', '', [], 10).width).toBe(520);
  });

  it('wraps the legend into rows that stay inside the width, and grows the header by a row for each', () => {
    const labels = GRAPH_LEGEND.map((k) => k.label);
    const one = graphHeaderLayout('t', '', labels.slice(0, 2), 3000);
    expect(new Set(one.items.map((i) => i.y)).size).toBe(1);
    const many = graphHeaderLayout('t', '', labels, 520);
    const rows = new Set(many.items.map((i) => i.y)).size;
    expect(rows).toBeGreaterThan(1);
    for (const item of many.items) expect(item.x + 19 + textWidth(item.label)).toBeLessThanOrEqual(many.width - 12);
    expect(many.height - one.height).toBe(16 * (rows - 1));
    // In order, left to right then down.
    expect(many.items.map((i) => i.label)).toEqual(labels);
  });

  it('calls a collapsed group by its kind, never "operator"', () => {
    const collapsed = GRAPH_LEGEND.filter((k) => k.selector.includes('g-collapsed'));
    expect(collapsed.map((k) => k.label)).toEqual(['name scope (collapsed)', 'fusion unit (collapsed)', 'depthwise + pointwise unit (collapsed)', 'compute-unit partition (collapsed)']);
    // The operator swatch matches op boxes only.
    expect(GRAPH_LEGEND.find((k) => k.label === 'operator')!.selector).toContain('.g-op');
  });
});
