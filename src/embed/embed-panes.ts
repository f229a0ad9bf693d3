// The panes an embed shows, from `panes=heap,explain` in the URL or the
// `panes` attribute of <heapscope-view>: any of graph, heap, chart, explain
// and growth, in the order given (`details`, the page's name for the pane
// that explains the plan, is `explain`). Without a choice: the graph beside the heap.

/** The panes an embed can show. */
export const EMBED_PANES = ['graph', 'heap', 'chart', 'explain', 'growth'] as const;
/** One pane of an embed. */
export type EmbedPane = (typeof EMBED_PANES)[number];

/** What an embed shows when it is not told. */
export const DEFAULT_EMBED_PANES: readonly EmbedPane[] = ['graph', 'heap'];

/** The panes a `panes` value names, and the entries that name none. */
export interface EmbedPanes {
  readonly panes: readonly EmbedPane[] | undefined; // undefined: none named, so the default
  readonly ignored: readonly string[];
}

/** Other names of panes: the page's header calls the explanation's pane Details. */
const PANE_ALIASES: Readonly<Record<string, EmbedPane>> = { details: 'explain' };

/** Parses "heap,explain" (commas or spaces, any case, repeats dropped; "details" is "explain"). */
export function parseEmbedPanes(text: string | null | undefined): EmbedPanes {
  const panes: EmbedPane[] = [];
  const ignored: string[] = [];
  for (const entry of (text ?? '').split(/[\s,]+/).filter(Boolean)) {
    const lower = entry.toLowerCase();
    const name = Object.hasOwn(PANE_ALIASES, lower) ? PANE_ALIASES[lower]! : lower;
    if ((EMBED_PANES as readonly string[]).includes(name)) {
      if (!panes.includes(name as EmbedPane)) panes.push(name as EmbedPane);
    } else ignored.push(entry);
  }
  return { panes: panes.length > 0 ? panes : undefined, ignored };
}
