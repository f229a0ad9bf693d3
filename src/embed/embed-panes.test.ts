import { describe, expect, it } from 'vitest';
import { parseEmbedPanes } from './embed-panes';

describe('the panes of an embed', () => {
  it('reads pane names in the order given, commas or spaces, any case, once each', () => {
    expect(parseEmbedPanes('heap,explain').panes).toEqual(['heap', 'explain']);
    expect(parseEmbedPanes('Chart  graph,chart').panes).toEqual(['chart', 'graph']);
    expect(parseEmbedPanes('growth,heap').panes).toEqual(['growth', 'heap']);
  });

  it("takes the page's name for the explanation's pane, Details, as explain", () => {
    expect(parseEmbedPanes('heap,details')).toEqual({ panes: ['heap', 'explain'], ignored: [] });
    expect(parseEmbedPanes('Details,explain').panes).toEqual(['explain']);
    expect(parseEmbedPanes('constructor')).toEqual({ panes: undefined, ignored: ['constructor'] });
  });

  it('sets aside names it does not know and falls back to the default when none is left', () => {
    expect(parseEmbedPanes('heap,table')).toEqual({ panes: ['heap'], ignored: ['table'] });
    expect(parseEmbedPanes('tables')).toEqual({ panes: undefined, ignored: ['tables'] });
    expect(parseEmbedPanes(null)).toEqual({ panes: undefined, ignored: [] });
  });
});

describe('panes= in the URL', () => {
  it('is read with the other parameters and kept in share links', async () => {
    const { parseUrlParams, shareSearch } = await import('../app/url-params');
    const { NO_EXTRAS } = await import('../app/url-settings');
    const p = parseUrlParams('?embed=1&panes=heap,explain,sideways');
    expect(p.panes).toEqual(['heap', 'explain']);
    expect(p.ignored).toEqual(['panes=sideways: the panes are graph, heap, chart, explain, growth']);
    const link = shareSearch({ ...NO_EXTRAS, model: undefined, dims: {}, strategy: 'best', target: undefined, embed: true }, '?embed=1&panes=heap,explain');
    expect(parseUrlParams(link).panes).toEqual(['heap', 'explain']);
  });
});
