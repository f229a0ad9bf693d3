// Draws a laid-out graph into an SVG group with D3: clusters and bodies behind,
// edges with their shape-and-size labels, kept off one another (label-room.ts;
// a TensorFlow Lite tensor's quantization on hover), then the node boxes (op type over name, alias badge,
// folded constants, body toggle) — only those meeting the
// region asked for, and far out as a few dense paths, so a graph of thousands
// of boxes costs what is on screen. Also applies the selection's and the
// search's emphasis as classes. No React; the view calls these.

import { select, type Selection } from 'd3';
import { shortName, titleText } from '../../../shared/short-name';
import type { GraphPlacement, PlacedBox } from '../../../worker/layout/protocol';
import { crosses, drawDense, polyline, type DrawExtent } from './draw-dense';
import { labelRoom } from './label-room';
import type { GraphItem, GraphLayoutInput } from '../layout/layout-input';
import { graphLabel, IO_STATE } from '../layout/layout-input';
import { CHAR, TITLE_CHAR } from '../layout/boxes';
import { titleSpan, type TitleSpan } from './group-titles';

export type { DrawExtent, GraphRegion } from './draw-dense';

/** What clicks and keys on the drawing do. */
export interface GraphHandlers {
  readonly activate: (item: GraphItem) => void; // select an op, or a graph input's or output's buffer; toggle a cluster
  readonly toggleBodies: (item: GraphItem) => void;
  readonly focusItem: (id: string) => void; // keyboard focus reached a box
  readonly clear: () => void; // Escape: nothing selected
}

/** Per-node facts for the drawing's data attributes. */
export interface NodeFacts {
  readonly buffers: ReadonlyMap<string, readonly number[]>; // node name -> plan buffer indices it owns
  readonly outputs: readonly (readonly string[])[]; // by node index: its output tensors
}

const ALIAS_TEXT: Readonly<Record<string, string>> = {
  removable: 'alias: removable, its output is its input’s bytes',
  'in-place': 'alias: in place, writes over its input',
  window: 'alias: its outputs are windows of its input',
  merging: 'alias: merging, its inputs are written into its output',
};

type G = Selection<SVGGElement, unknown, null, undefined>;

/** Replaces the drawing in `root` with the part of `placement` and the overlay `frames` (functions, fusion units) that `extent` asks for. */
export function drawGraph(root: SVGGElement, input: GraphLayoutInput, placement: GraphPlacement, frames: readonly PlacedBox[], facts: NodeFacts, handlers: GraphHandlers, extent: DrawExtent = {}): void {
  const g = select(root);
  g.selectAll('*').remove();
  const { region, dense = false } = extent;
  const isGroup = (b: PlacedBox): boolean => {
    const item = input.items.get(b.id);
    return item !== undefined && (item.kind === 'cluster' || item.kind === 'body' || ((item.kind === 'op' || item.kind === 'body-op') && item.expanded));
  };
  const inside = (b: PlacedBox): boolean => region === undefined || (b.x <= region.x1 && b.x + b.width >= region.x0 && b.y <= region.y1 && b.y + b.height >= region.y0);
  const groups = [...placement.boxes.filter((b) => isGroup(b) && inside(b)), ...frames.filter(inside)];
  drawGroups(g.append('g').attr('class', 'g-groups'), groups, input, facts, handlers);
  const links = region === undefined ? placement.links : placement.links.filter((l) => crosses(l.points, region));
  const leaves = placement.boxes.filter((b) => !isGroup(b) && inside(b) && input.items.has(b.id));
  if (dense) {
    drawDense(g.append('g').attr('class', 'g-dense'), leaves, links, input);
    return;
  }
  drawEdges(g.append('g').attr('class', 'g-edges'), input, links, labelSpots(input, placement));
  drawNodes(g.append('g').attr('class', 'g-nodes'), leaves, input, facts, handlers);
}

function drawGroups(g: G, groups: readonly PlacedBox[], input: GraphLayoutInput, facts: NodeFacts, handlers: GraphHandlers): void {
  for (const box of groups) {
    const item = input.items.get(box.id)!;
    const kind = item.cluster?.kind ?? (item.kind === 'body' ? 'body' : 'op-body');
    const group = g.append('g').attr('class', `g-group g-group-${kind}${item.heavy === true ? ' g-heavy' : ''}`).attr('transform', `translate(${box.x},${box.y})`).attr('data-box', box.id);
    if (item.node !== undefined) {
      nodeData(group, item, facts);
      group.on('click', (event: MouseEvent) => {
        event.stopPropagation();
        handlers.activate(item);
      });
    }
    group.append('rect').attr('class', 'g-group-frame').attr('width', box.width).attr('height', box.height).attr('rx', 10);
    const header = group.append('g').attr('class', 'g-group-header');
    const toggles = item.kind === 'cluster' || item.node !== undefined || item.kind === 'body-op';
    if (toggles) {
      const what = item.kind === 'cluster' ? `Collapse ${groupWord(item)} ${item.title}` : `Hide the bodies of ${item.title} ${shortName(item.subtitle)}`;
      header
        .attr('role', 'button')
        .attr('data-focusable', box.id)
        .attr('tabindex', -1)
        .attr('aria-expanded', 'true')
        .attr('aria-label', what)
        .attr('class', 'g-group-header g-toggle')
        .on('click', (event: MouseEvent) => {
          event.stopPropagation();
          if (item.kind === 'cluster') handlers.activate(item);
          else handlers.toggleBodies(item);
        })
        .on('keydown', (event: KeyboardEvent) => onKey(event, () => (item.kind === 'cluster' ? handlers.activate(item) : handlers.toggleBodies(item))))
        .on('focus', () => handlers.focusItem(item.id));
      header.append('rect').attr('class', 'g-hit').attr('width', box.width).attr('height', 26).attr('rx', 10);
    }
    const detail = item.node !== undefined || item.kind === 'body-op' ? graphLabel(item.subtitle, 26) : item.subtitle;
    const pad = 18 + (toggles ? 2 * CHAR : 0);
    const title = header
      .append('text')
      .attr('class', 'g-group-title')
      .attr('y', 18)
      .attr('data-x', box.x)
      .attr('data-width', box.width)
      .attr('data-pad', pad)
      .attr('data-name', item.title)
      .attr('data-detail', detail)
      .attr('data-whole', titleText(`${item.title} ${item.subtitle}`));
    title.append('tspan').attr('class', 'g-glyph').text(toggles ? '▾ ' : '');
    title.append('tspan').attr('class', 'g-group-name');
    title.append('tspan').attr('class', 'g-group-detail');
    placeGroupTitle(title.node()!, undefined);
  }
}

/**
 * Fits each group title in `root` to the view from `x0` to `x1` (graph units):
 * a frame starting left of the view has its title drawn from the view's left
 * edge, cut at its end (group-titles.ts); the others as their frame allows.
 */
export function placeGroupTitles(root: SVGGElement, x0: number, x1: number): void {
  for (const text of root.querySelectorAll<SVGTextElement>('text.g-group-title[data-name]')) {
    placeGroupTitle(text, titleSpan(Number(text.dataset.x), Number(text.dataset.width), x0, x1));
  }
}

/** Draws group title `text` at `span` (undefined: at its frame's start, in the frame's width). */
function placeGroupTitle(text: SVGTextElement, span: TitleSpan | undefined): void {
  const data = text.dataset;
  const pad = Number(data.pad);
  const room = span === undefined ? Number(data.width) - pad : span.room - pad;
  const fitted = fitHeader(data.name!, data.detail!, room);
  text.setAttribute('x', String(10 + (span?.shift ?? 0)));
  text.querySelector('.g-group-name')!.textContent = `${fitted.title} `;
  text.querySelector('.g-group-detail')!.textContent = fitted.detail;
  const hover = text.querySelector(':scope > title');
  if (fitted.cut && hover === null) select(text).insert('title', ':first-child').text(data.whole!);
  else if (!fitted.cut) hover?.remove();
}

/**
 * A group's title and detail cut to `width` px: the detail first, then the
 * title. A frame drawn around one small box (a compute-unit partition of one
 * node) is narrower than its header, which ran into the frame beside it.
 */
export function fitHeader(title: string, detail: string, width: number): { title: string; detail: string; cut: boolean } {
  const titleWidth = (title.length + 1) * TITLE_CHAR;
  if (titleWidth + detail.length * CHAR <= width) return { title, detail, cut: false };
  const detailChars = Math.floor((width - titleWidth) / CHAR);
  if (detailChars >= 4) return { title, detail: cutTo(detail, detailChars), cut: true };
  return { title: cutTo(title, Math.max(2, Math.floor(width / TITLE_CHAR) - 1)), detail: '', cut: true };
}

/** `text` cut with an ellipsis to at most `chars` characters, the ellipsis included. */
function cutTo(text: string, chars: number): string {
  let cut = shortName(text, chars);
  for (let max = chars - 1; cut.length > chars && max > 0; max--) cut = shortName(text, max);
  return cut;
}

const spotsCache = new WeakMap<GraphLayoutInput, WeakMap<GraphPlacement, ReadonlyMap<string, number | undefined>>>();

/**
 * Each edge label's y once labels keep off one another (label-room.ts), by
 * link id (undefined: left out), over the whole placement: a large graph
 * draws a region at a time, and its labels stay where they were.
 */
function labelSpots(input: GraphLayoutInput, placement: GraphPlacement): ReadonlyMap<string, number | undefined> {
  let byPlacement = spotsCache.get(input);
  if (byPlacement === undefined) spotsCache.set(input, (byPlacement = new WeakMap()));
  const known = byPlacement.get(placement);
  if (known !== undefined) return known;
  const labelled = placement.links.filter((l) => l.labelX !== undefined && l.labelY !== undefined && input.edges.has(l.id) && l.points.length >= 4);
  const ys = labelRoom(labelled.map((l) => ({ x: l.labelX!, y: l.labelY!, text: input.edges.get(l.id)!.text, bends: l.points.length / 2 - 2 })));
  const spots = new Map(labelled.map((l, i) => [l.id, ys[i]]));
  byPlacement.set(placement, spots);
  return spots;
}

function drawEdges(g: G, input: GraphLayoutInput, links: GraphPlacement['links'], spots: ReadonlyMap<string, number | undefined>): void {
  const labels: { x: number; y: number; text: string; id: string; hint: string | undefined }[] = [];
  const paths = g.append('g').attr('class', 'g-edge-paths');
  for (const link of links) {
    const edge = input.edges.get(link.id);
    if (edge === undefined || link.points.length < 4) continue;
    const path = paths
      .append('path')
      .attr('class', 'g-edge')
      .attr('d', polyline(link.points))
      .attr('marker-end', 'url(#g-arrow)')
      .attr('data-edge', edge.id)
      .attr('data-from', edge.source)
      .attr('data-to', edge.target)
      .attr('data-values', edge.values.join('\n'));
    const y = link.labelX === undefined || link.labelY === undefined ? undefined : spots.get(link.id);
    // a label with no room beside the others is left out: its text is the edge's hover title
    const title = y === undefined && link.labelX !== undefined ? [edge.text, edge.hint].filter((t) => t !== undefined).join('\n') : edge.hint;
    if (title !== undefined) path.append('title').text(title);
    if (y === undefined && link.labelX !== undefined) path.attr('data-label-left-out', 'true');
    if (link.labelX !== undefined && y !== undefined) labels.push({ x: link.labelX, y, text: edge.text, id: edge.id, hint: edge.hint });
  }
  g.append('g')
    .attr('class', 'g-edge-labels')
    .selectAll('text')
    .data(labels)
    .join('text')
    .attr('class', 'g-edge-label')
    .attr('x', (d) => d.x + 3)
    .attr('y', (d) => d.y + 10.5)
    .attr('data-edge', (d) => d.id)
    .text((d) => d.text)
    // A label with a hint takes the pointer, so hovering it shows the quantization.
    .classed('g-edge-label-hint', (d) => d.hint !== undefined)
    .filter((d) => d.hint !== undefined)
    .append('title')
    .text((d) => d.hint!);
}

function drawNodes(g: G, leaves: readonly PlacedBox[], input: GraphLayoutInput, facts: NodeFacts, handlers: GraphHandlers): void {
  for (const box of leaves) drawNode(g, box, input.items.get(box.id)!, facts, handlers);
}

/** One box: frame, op type (or cluster name) over name, and its alias badge or body toggle. */
function drawNode(g: G, box: PlacedBox, item: GraphItem, facts: NodeFacts, handlers: GraphHandlers): void {
  const node = g
    .append('g')
    .attr('class', `gbox g-${item.kind}${item.alias ? ` g-alias g-alias-${item.alias}` : ''}${item.cluster ? ` g-kind-${item.cluster.kind}` : ''}${item.heavy === true ? ' g-heavy' : ''}`)
    .attr('transform', `translate(${box.x},${box.y})`)
    .attr('data-box', box.id)
    .attr('data-focusable', item.kind === 'body-op' ? null : box.id)
    .attr('tabindex', -1)
    .attr('role', 'button')
    .attr('aria-label', ariaLabel(item))
    .on('click', (event: MouseEvent) => {
      event.stopPropagation();
      handlers.activate(item);
    })
    .on('keydown', (event: KeyboardEvent) => onKey(event, () => handlers.activate(item)))
    .on('focus', () => handlers.focusItem(item.id));
  if (item.node !== undefined) nodeData(node, item, facts);
  if (item.kind === 'collapsed') {
    node.attr('aria-expanded', 'false').attr('data-cluster', item.id);
    node.append('rect').attr('class', 'g-stack').attr('x', 5).attr('y', 5).attr('width', box.width).attr('height', box.height).attr('rx', 8);
  }
  node.append('rect').attr('class', 'g-box').attr('width', box.width).attr('height', box.height).attr('rx', item.kind === 'io' ? box.height / 2 : 7);
  const left = item.kind === 'io' ? box.height / 2 : 10;
  node.append('text').attr('class', 'g-title').attr('x', left).attr('y', item.kind === 'io' ? 15 : 17).text(item.kind === 'collapsed' ? `▸ ${item.title}` : item.title);
  node.append('text').attr('class', 'g-sub').attr('x', left).attr('y', item.kind === 'io' ? 27 : 31).text(graphLabel(item.subtitle));
  // A cut node name shows more of itself on hover; a click selects the node, whose details show all of it.
  if (item.node !== undefined && graphLabel(item.subtitle) !== item.subtitle) node.append('title').text(titleText(item.subtitle));
  else if (item.hint !== undefined) node.append('title').text(item.hint);
  drawMark(node, box, item, handlers);
}

/** The folded constants of an op as a small tab under its box, listed on hover. */
function drawConstants(node: G, box: PlacedBox, item: GraphItem): void {
  const constants = item.constants ?? [];
  if (constants.length === 0) return;
  const text = `◆ ${constants.length}`;
  const tab = node.append('g').attr('class', 'g-consts').attr('transform', `translate(${box.width - 12 - text.length * 6},${box.height - 7})`).attr('data-constants', constants.length);
  tab.append('rect').attr('width', text.length * 6 + 6).attr('height', 13).attr('rx', 4);
  tab.append('text').attr('x', 3).attr('y', 10).text(text);
  tab.append('title').text(`${constants.length} weight${constants.length === 1 ? '' : 's'} and constants folded into this op:\n${constants.slice(0, 12).join('\n')}${constants.length > 12 ? `\n… ${constants.length - 12} more` : ''}`);
}

/** The alias badge of an op sharing bytes (on its top edge), or the toggle of an op with bodies. */
function drawMark(node: G, box: PlacedBox, item: GraphItem, handlers: GraphHandlers): void {
  drawConstants(node, box, item);
  if (item.alias !== undefined) {
    const badge = node.append('g').attr('class', 'g-badge').attr('transform', `translate(${box.width - 46},-8)`);
    badge.append('rect').attr('width', 40).attr('height', 16).attr('rx', 8);
    badge.append('text').attr('x', 20).attr('y', 11.5).text(item.alias === 'merging' ? 'merge' : 'alias');
    badge.append('title').text(ALIAS_TEXT[item.alias] ?? 'alias');
  } else if (item.bodies > 0) {
    node
      .append('g')
      .attr('class', 'g-body-toggle')
      .attr('transform', `translate(${box.width - 18},${box.height / 2})`)
      .attr('role', 'button')
      .attr('tabindex', 0)
      .attr('aria-label', `Show the ${item.bodies} bod${item.bodies === 1 ? 'y' : 'ies'} of ${item.title} ${shortName(item.subtitle)}`)
      .on('click', (event: MouseEvent) => {
        event.stopPropagation();
        handlers.toggleBodies(item);
      })
      .on('keydown', (event: KeyboardEvent) => onKey(event, () => handlers.toggleBodies(item)))
      .call((t) => {
        t.append('circle').attr('r', 8);
        t.append('text').attr('y', 4).text('+');
      });
  }
}

/** Marks a model node's element: its index, name, outputs and the plan buffers it owns. */
function nodeData(element: G, item: GraphItem, facts: NodeFacts): void {
  element
    .classed('gnode', true)
    .attr('data-node-index', item.node!)
    .attr('data-node', item.subtitle)
    .attr('data-outputs', (facts.outputs[item.node!] ?? []).join('\n'))
    .attr('data-buffers', (facts.buffers.get(item.subtitle) ?? []).join(','));
}

function ariaLabel(item: GraphItem): string {
  if (item.kind === 'collapsed') return `Expand ${groupWord(item)} ${item.title} (${item.subtitle})`;
  if (item.kind === 'io') return item.subtitle === IO_STATE ? `State ${item.title}, a variable tensor kept across runs` : `Graph ${item.subtitle} ${item.title}`;
  const alias = item.alias === undefined ? '' : `, ${ALIAS_TEXT[item.alias]}`;
  return `${item.title} ${shortName(item.subtitle)}${alias}`;
}

function groupWord(item: GraphItem): string {
  const kind = item.cluster?.kind;
  return kind === 'function' ? 'function' : kind === 'scope' ? 'group' : 'fusion unit';
}

function onKey(event: KeyboardEvent, run: () => void): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  event.stopPropagation();
  run();
}

/** What the drawing emphasizes. */
export interface GraphMarks {
  readonly emphasized: ReadonlySet<string>; // box ids
  readonly values: ReadonlySet<string>; // tensor names whose edges to emphasize
  readonly matches: ReadonlySet<string>; // box ids matching the search
  readonly current: string | undefined; // the search's current box
  readonly selected?: string; // the box of the selected node (or graph input or output), marked aria-current for a screen reader
}

/** Applies `marks` to the drawing in `root`. */
export function markGraph(root: SVGGElement, marks: GraphMarks): void {
  const g = select(root);
  const any = marks.emphasized.size > 0;
  root.ownerSVGElement?.classList.toggle('g-has-emphasis', any);
  g.selectAll<SVGGElement, unknown>('[data-box]').each(function mark() {
    const id = this.dataset.box!;
    const on = marks.emphasized.has(id);
    this.classList.toggle('g-emphasized', on);
    if (on) this.dataset.emphasized = 'true';
    else delete this.dataset.emphasized;
    const current = marks.current === id;
    this.classList.toggle('g-match', marks.matches.has(id) && !current);
    this.classList.toggle('g-current', current);
    if (current) this.dataset.search = 'current';
    else if (marks.matches.has(id)) this.dataset.search = 'match';
    else delete this.dataset.search;
    markCurrent(this, current);
    // The box's own button: a leaf box is one, an expanded group's is its header.
    const button = this.matches('[role="button"]') ? this : this.querySelector(':scope > [role="button"]');
    if (marks.selected === id) button?.setAttribute('aria-current', 'true');
    else button?.removeAttribute('aria-current');
  });
  g.selectAll<SVGPathElement, unknown>('path.g-edge').each(function mark() {
    const carried = (this.dataset.values ?? '').split('\n');
    const from = this.dataset.from!;
    const to = this.dataset.to!;
    const on = carried.some((v) => marks.values.has(v)) || (marks.values.size === 0 && marks.emphasized.has(from) && marks.emphasized.has(to));
    this.classList.toggle('g-emphasized', on);
  });
}

/** Space between the current match's box and the ring around it, in graph units. */
const RING_GAP = 6;

/**
 * Puts a ring around `element` when it is the search's current match (removes
 * it otherwise): a band a few units outside the box, drawn behind it, so the
 * current match stands out from the other matches' outline at any zoom.
 */
function markCurrent(element: SVGGElement, current: boolean): void {
  const ring = element.querySelector<SVGRectElement>(':scope > .g-current-ring');
  if (!current) {
    ring?.remove();
    return;
  }
  if (ring !== null) return;
  const shape = element.querySelector<SVGRectElement>(':scope > .g-box, :scope > .g-group-frame');
  if (shape === null) return;
  const stack = element.querySelector(':scope > .g-stack') === null ? 0 : 5; // a collapsed group's cards lie 5 units down and right
  const width = Number(shape.getAttribute('width')) + stack;
  const height = Number(shape.getAttribute('height')) + stack;
  const added = select(element)
    .insert('rect', ':first-child')
    .attr('class', 'g-current-ring')
    .attr('x', -RING_GAP)
    .attr('y', -RING_GAP)
    .attr('width', width + 2 * RING_GAP)
    .attr('height', height + 2 * RING_GAP)
    .attr('rx', Number(shape.getAttribute('rx') ?? 0) + RING_GAP);
  added.attr('data-testid', 'graph-current-ring');
}
