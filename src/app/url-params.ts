// The page's URL parameters (DESIGN.md): model=<url>, dim.NAME=VALUE, embed=1
// (with panes=graph,heap,chart,explain,growth, which also chooses the full page's panes), strategy= and target=, plus the extras of url-settings.ts (target fields,
// shapes, input values, selection, graph groups, a local file's name) and an
// open comparison's B (url-compare.ts); read at start, and written back as the
// view changes so that a copied link reopens the same view.

import { isExtraKey, readExtras, writeExtras, type LinkExtras } from './url-settings';
import { isDimKey, readDims, writeDims } from '../store/dim-params';
import { isCompareKey, readCompare, writeCompare } from './url-compare';
import type { SideBSettings } from '../store/compare-store';
import { nullRecord } from '../shared/own';
import { EMBED_PANES, parseEmbedPanes, type EmbedPane } from '../embed/embed-panes';

/** What the URL asks the page to do. */
export interface UrlParams extends LinkExtras {
  readonly model: string | undefined; // a model URL to open instead of the sample
  readonly dims: Readonly<Record<string, number>>; // dim.NAME=VALUE bindings
  readonly embed: boolean; // chrome-less view for documentation pages
  readonly panes: readonly EmbedPane[] | undefined; // what an embed shows (panes=), or the full page's panes at start; undefined: the default
  readonly strategy: string | undefined;
  readonly target: string | undefined;
  readonly compare: SideBSettings | undefined; // compare=1: B, the model planned with the b. settings
  readonly ignored: readonly string[]; // parameters that could not be used, as "name=value"
  readonly typed: Readonly<Record<string, string>>; // each parameter's value as the link wrote it (the last of a repeated one, as read), for a notice to quote
}

/** The parameters this page reads; others in a URL are kept as they are. */
const OWN_KEYS = new Set(['model', 'embed', 'strategy', 'target']);

/** True for a parameter the page reads (its own, a dim's, an extra's, a comparison's, panes=). */
function isReadKey(key: string): boolean {
  return OWN_KEYS.has(key) || key === 'panes' || isDimKey(key) || isExtraKey(key) || isCompareKey(key);
}

/**
 * `search`'s parameters with one value for each the page reads, the last given, as the command-line tool takes an
 * option given twice; each given again with another value is pushed to `ignored` as `target given twice ("mcu",
 * then "cpu"): the last applies`. Parameters the page does not read are kept as they are.
 */
export function lastOfRepeated(search: string, ignored: string[]): URLSearchParams {
  const given = new Map<string, string[]>();
  const kept = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(search)) {
    if (!isReadKey(key)) kept.append(key, value);
    else given.set(key, [...(given.get(key) ?? []), value]);
  }
  for (const [key, values] of given) {
    kept.set(key, values.at(-1)!);
    if (new Set(values).size < 2) continue;
    const times = values.length === 2 ? 'twice' : `${values.length} times`;
    const quoted = values.map((v) => `"${v}"`);
    ignored.push(`${key} given ${times} (${quoted.slice(0, -1).join(', ')}, then ${quoted.at(-1)!}): the last applies`);
  }
  return kept;
}

/** Parses a location.search string. Dim values must be whole numbers from 0 to 2^31 - 1. A parameter given twice takes the last value, and says so. */
export function parseUrlParams(search: string): UrlParams {
  const ignored: string[] = [];
  const params = lastOfRepeated(search, ignored);
  const dims = readDims(params, ignored);
  const text = (key: string): string | undefined => {
    const value = params.get(key)?.trim();
    return value ? value : undefined;
  };
  const embed = params.get('embed');
  const extras = readExtras(params, ignored);
  // An empty model= would otherwise open the sample without a word, as a link with no model does.
  const model = params.get('model');
  if (model !== null && model.trim() === '') ignored.push(`model=${model}: the link's model parameter is empty, so ${extras.file === undefined ? 'the sample opens instead' : `the local file ${extras.file} is asked for instead`}`);
  const compare = readCompare(params, ignored);
  // Kept in links as it is (not an own key; the full page's toggles write it): a shared link shows the same panes.
  const panes = parseEmbedPanes(params.get('panes'));
  ignored.push(...panes.ignored.map((p) => `panes=${p}: the panes are ${EMBED_PANES.join(', ')}`));
  return {
    ...extras,
    model: text('model'),
    dims,
    embed: embed === '1' || embed === 'true',
    panes: panes.panes,
    strategy: text('strategy'),
    target: text('target'),
    compare,
    ignored,
    typed: nullRecord(params),
  };
}

/** The view a link should reopen. */
export interface ShareState extends LinkExtras {
  readonly model: string | undefined; // the model's URL; undefined for the sample or a local file
  readonly dims: Readonly<Record<string, number>>;
  readonly strategy: string | undefined; // undefined: the target's own
  readonly target: string | undefined; // undefined: the default target
  readonly compare?: SideBSettings; // an open comparison's B, when it is the model planned again
  readonly embed: boolean;
}

/**
 * The search string (with its "?", or "" when empty) of a link to `state`,
 * keeping the parameters of `current` this page does not read. Dims are written
 * in name order so the same view always gives the same link.
 */
export function shareSearch(state: ShareState, current = ''): string {
  const params = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(current)) {
    if (key === 'panes') {
      // the panes it names that the page knows: an entry the page said it left out does not travel on
      const named = parseEmbedPanes(value).panes;
      if (named !== undefined && !params.has('panes')) params.set('panes', named.join(','));
    } else if (!OWN_KEYS.has(key) && !isDimKey(key) && !isExtraKey(key) && !isCompareKey(key)) params.append(key, value);
  }
  if (state.model !== undefined) params.set('model', state.model);
  if (state.target !== undefined) params.set('target', state.target);
  if (state.strategy !== undefined) params.set('strategy', state.strategy);
  writeDims(state.dims, params);
  writeExtras(state, params);
  if (state.compare !== undefined) writeCompare(state.compare, params);
  if (state.embed) params.set('embed', '1');
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The link to share for a model's URL: relative to the page when it is on the
 * page's origin (so links keep working on another host of the same app),
 * absolute otherwise; blob: and data: URLs are not worth sharing.
 */
export function shareableModelUrl(url: string | undefined, pageUrl: string): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  let page: URL;
  try {
    parsed = new URL(url, pageUrl);
    page = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.origin === page.origin ? `${parsed.pathname}${parsed.search}` : parsed.href;
}

/** The page at `href` without embed=1: the full app, for a link out of an embedded view. */
export function fullViewHref(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('embed');
  return url.href;
}
