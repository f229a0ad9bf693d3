import { describe, expect, it } from 'vitest';
import { textWidth } from '../export/graph-header';
import { growthExport } from './growth-svg';

// The title the page gives GPT-2's growth export on mcu: the plan's title, then the curve's.
const TITLE =
  'tiny-random-gpt2-fp32-past.onnx · peak 680 KiB · lower bound 680 KiB · best on mcu · input_ids:0=1 · past_seq_len=256 · seq_len=1 · Peak against past_seq_len at seq_len = 1';

const point = (value: number, peak: number) => ({ value, peak, lowerBound: peak, regions: [{ name: 'sram', peak, lowerBound: peak }], complete: true, fits: true });
const input = { points: [point(0, 1000), point(1024, 400_000)], regions: [{ name: 'sram', sizeLimit: 512 * 1024 }], current: undefined };

/** The title's lines as the document draws them (the first text at 13 px, in tspans or alone): each line's x, y and text. */
function titleSpans(doc: string): { x: number; y: number; text: string }[] {
  const [, x, y, body] = /<text (?:class="gr-export-title" )?x="([\d.]+)" y="([\d.]+)" font-size="13"[^>]*>(.*?)<\/text>/.exec(doc)!;
  const spans = [...body!.matchAll(/<tspan x="([\d.]+)" y="([\d.]+)">([^<]*)<\/tspan>/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), text: m[3]! }));
  return spans.length > 0 ? spans : [{ x: Number(x), y: Number(y), text: body! }];
}

describe('growth export title', () => {
  const curve = growthExport(input, 'past_seq_len', 960);

  it('fits the drawing: each line ends left of its right edge, the whole kept in a <title>', () => {
    const doc = curve.document(TITLE);
    const spans = titleSpans(doc);
    expect(spans.length).toBe(2);
    for (const s of spans) expect(s.x + textWidth(s.text, true)).toBeLessThanOrEqual(960);
    expect(doc).toContain(`<title>${TITLE}</title>`);
    // broken after a separator, not inside a figure
    expect(spans[0]!.text.endsWith(' ·')).toBe(false);
    expect(TITLE.startsWith(spans[0]!.text)).toBe(true);
  });

  it('grows the document by the second line, so the chart starts under it', () => {
    const short = curve.document('gpt2.onnx · Peak against past_seq_len');
    const long = curve.document(TITLE);
    const height = (svg: string) => Number(/^<svg [^>]*height="(\d+)"/.exec(svg)![1]);
    expect(titleSpans(short).map((s) => s.text)).toEqual(['gpt2.onnx · Peak against past_seq_len']);
    expect(/<text class="gr-export-title"[^>]*>(.*?)<\/text>/.exec(short)?.[1]).not.toContain('<title>');
    expect(height(long) - height(short)).toBe(titleSpans(long)[1]!.y - titleSpans(long)[0]!.y);
  });

  it('shortens a second line still too long in its middle', () => {
    const spans = titleSpans(curve.document(`${TITLE} · ${'x'.repeat(300)}`));
    expect(spans.length).toBe(2);
    expect(spans[1]!.text).toContain('…');
    for (const s of spans) expect(s.x + textWidth(s.text, true)).toBeLessThanOrEqual(960);
  });
});
