// The diff of A and B as lists: the causes of the peak change ranked by bytes
// (each selects its buffers in both diagrams and names its nodes), and every
// buffer that changed: grown, shrunk, of unknown size on a side, new, gone, moved between regions or within one, or moved off or on chip;
// and, when both plans give them, the bytes moved per region and the buffers
// that changed region (moved-view.tsx).

import { useMemo, useState } from 'react';
import type { BufferChange, PlanDiff } from '../../planner/diff/diff-plans';
import { changeKindOf, MOVE_WORDS, type ChangeKind } from '../../planner/diff/move-kind';
import { MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { BytesCell, DataTable, NameCell } from '../data-table';
import { CAUSE_LABELS, causeFocus, changeFocus, signedBytes, sizeDelta } from './compare-scale';
import type { CompareFocus } from '../../store/compare-store';
import { MovedView } from './moved-view';
import { deltaBound, deltaPrefix } from '../../planner/diff/delta-words';
import { offsetChangeText } from './offset-change';
import { formatBytes, wholeFigures } from '../../shared/format';

/** Props of DiffView. */
export interface DiffViewProps {
  readonly diff: PlanDiff;
  readonly focus: CompareFocus | undefined;
  readonly onFocus: (focus: CompareFocus | undefined) => void;
  readonly onSelectNode: (node: string) => void; // selects the node in the page's views
}

/** The filters, by the kind a change is counted under: a buffer moved, by whether it changed region (move-kind.ts), as the causes count them. */
const STATUSES: readonly Exclude<ChangeKind, 'same'>[] = ['grown', 'shrunk', 'unknown', 'new', 'gone', 'between-regions', 'within-region', 'off-chip', 'on-chip'];

/** Causes, then buffer changes. */
export function DiffView({ diff, focus, onFocus, onSelectNode }: DiffViewProps) {
  return (
    <div className="diff-view">
      <section aria-labelledby="diff-causes-title">
        <h3 id="diff-causes-title" className="diff-title">
          Why the peak changed by {deltaPrefix(deltaBound(diff.completeA, diff.completeB))}
          {signedBytes(diff.delta)}
        </h3>
        {diff.causes.length === 0 ? (
          <p className="muted">Nothing: both plans have the same peak for the same reasons.</p>
        ) : (
          <ol className="diff-causes" data-testid="diff-causes">
            {diff.causes.map((cause, k) => {
              const picked = focus?.label === cause.summary;
              return (
                <li key={`${cause.kind}-${k}`} className="diff-cause" data-testid="diff-cause" data-kind={cause.kind} data-bytes={cause.bytes} aria-current={picked || undefined}>
                  <button type="button" className="diff-cause-button" onClick={() => onFocus(picked ? undefined : causeFocus(diff, cause))}>
                    <span className={`diff-bytes ${cause.bytes > 0 ? 'diff-up' : 'diff-down'}`}>{signedBytes(cause.bytes)}</span>
                    <span className="diff-kind">{cause.title ?? CAUSE_LABELS[cause.kind]}</span>
                    <span className="diff-summary">{shortName(cause.summary, MESSAGE_CHARS)}</span>
                  </button>
                  {picked && cause.nodes.length > 0 && (
                    <p className="diff-nodes">
                      nodes:{' '}
                      {cause.nodes.slice(0, 12).map((node) => (
                        <button key={node} type="button" className="chip" onClick={() => onSelectNode(node)} title={`Select ${titleText(node)} in the page`}>
                          {shortName(node)}
                        </button>
                      ))}
                      {cause.nodes.length > 12 && <span className="muted"> and {cause.nodes.length - 12} more</span>}
                    </p>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </section>
      {diff.moved !== undefined && <MovedView moved={diff.moved} focus={focus} onFocus={onFocus} />}
      <BufferChanges diff={diff} focus={focus} onFocus={onFocus} />
    </div>
  );
}

/** The changed buffers, filtered by status, largest change first. */
function BufferChanges({ diff, focus, onFocus }: Omit<DiffViewProps, 'onSelectNode'>) {
  const [status, setStatus] = useState<ChangeKind | 'all'>('all');
  const counts = useMemo(() => {
    const out = new Map<ChangeKind, number>();
    for (const c of diff.buffers) out.set(changeKindOf(c), (out.get(changeKindOf(c)) ?? 0) + 1);
    return out;
  }, [diff]);
  const rows = useMemo(
    () =>
      diff.buffers
        .filter((c) => c.status !== 'same' && (status === 'all' || changeKindOf(c) === status))
        .sort((x, y) => Math.abs(sizeDelta(y)) - Math.abs(sizeDelta(x)) || nameOf(x).localeCompare(nameOf(y))),
    [diff, status],
  );
  return (
    <section aria-labelledby="diff-buffers-title">
      <h3 id="diff-buffers-title" className="diff-title">
        Buffers that changed
      </h3>
      <div className="segmented diff-filter" role="group" aria-label="Show buffers">
        <button type="button" aria-pressed={status === 'all'} onClick={() => setStatus('all')}>
          all
        </button>
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)} disabled={!counts.get(s)} data-testid={`diff-filter-${s}`}>
            {statusWord(diff, s)} {counts.get(s) ?? 0}
          </button>
        ))}
      </div>
      <DataTable className="diff-table" testId="diff-buffers" columns={['change', 'buffer', 'A', 'B', 'offset A → B']}>
        {rows.slice(0, 500).map((c) => {
          const f = changeFocus(c);
          const picked = focus?.label === f.label;
          return (
            <tr key={`${c.idA ?? ''}:${c.idB ?? ''}`} data-status={c.status} data-move={c.move} aria-selected={picked}>
              <td>
                {/* a narrow column: a move reads "moved", the way it moved in its title and in the offsets beside it */}
                <span className={`diff-status diff-status-${c.status}`} title={c.move === undefined ? undefined : MOVE_WORDS[c.move]}>
                  {c.status === 'moved' ? 'moved' : statusWord(diff, c.status)}
                </span>
              </td>
              <NameCell
                name={nameOf(c)}
                text={c.nameA !== undefined && c.nameB !== undefined && c.nameA !== c.nameB ? `${shortName(c.nameA)} → ${shortName(c.nameB)}` : undefined}
                className="diff-name"
                onClick={() => onFocus(picked ? undefined : f)}
              />
              <SizeCell size={c.sizeA} requested={c.requestedA} />
              <SizeCell size={c.sizeB} requested={c.requestedB} />
              <td title={c.offsetA === undefined || c.offsetB === undefined ? undefined : `${c.offsetA} → ${c.offsetB} bytes`}>{wholeFigures(offsetChangeText(c))}</td>
            </tr>
          );
        })}
      </DataTable>
      {rows.length > 500 && <p className="muted">{rows.length - 500} more not listed.</p>}
    </section>
  );
}

/**
 * A buffer's size on one side. A scratch buffer given free space beyond what
 * it asks shows what it asks, the free space marked as given ("2.00 KiB,
 * given 7.30 MiB"), as Details says it: the rest is no size of the buffer.
 */
function SizeCell({ size, requested }: { readonly size: number | undefined; readonly requested: number | undefined }) {
  if (size === undefined || requested === undefined) return <BytesCell bytes={size} />;
  return (
    <td title={`asks ${formatBytes(requested)}; given ${formatBytes(size)}, the free space at its step`} data-requested={requested}>
      {wholeFigures(formatBytes(requested))}
      <span className="muted">, given {wholeFigures(formatBytes(size))}</span>
    </td>
  );
}

/** A status as the table says it: of two different models, a buffer without a match is only in one of them, not new or gone. */
function statusWord(diff: PlanDiff, status: ChangeKind): string {
  if (diff.modelsDiffer === true && status === 'new') return 'B only';
  if (diff.modelsDiffer === true && status === 'gone') return 'A only';
  return status === 'between-regions' || status === 'within-region' ? MOVE_WORDS[status] : status;
}

function nameOf(change: BufferChange): string {
  return change.nameB ?? change.nameA ?? '';
}

