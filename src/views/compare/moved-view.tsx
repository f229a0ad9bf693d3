// The bytes-moved side of the diff: per region the bytes written and read over
// one inference in A and in B, and the buffers that changed region ranked by
// the bytes they move (each focuses the buffer in both diagrams).

import type { BufferMove, MovedDiff } from '../../planner/diff/diff-plans';
import { formatBytes } from '../../shared/format';
import { BytesCell, DataTable, NameCell } from '../data-table';
import { signedBytes } from './compare-scale';
import type { CompareFocus } from '../../store/compare-store';

/** Props of MovedView. */
export interface MovedViewProps {
  readonly moved: MovedDiff;
  readonly focus: CompareFocus | undefined;
  readonly onFocus: (focus: CompareFocus | undefined) => void;
}

/** Buffers listed at most. */
const LISTED = 200;

const DIRECTION: Readonly<Record<BufferMove['direction'], string>> = { 'to-slow': 'to slow', 'to-fast': 'to fast', across: 'same speed' };

/** The focus of one moved buffer: it, in both diagrams. */
function moveFocus(m: BufferMove): CompareFocus {
  return { label: `${m.name}: ${m.regionA} → ${m.regionB}`, buffersA: [m.name], buffersB: [m.name], nodes: [] };
}

/** "A → B" of two figures: wraps only after the arrow, each figure kept with its unit. */
function Change({ from, to }: { readonly from: string; readonly to: string }) {
  return (
    <>
      <span className="diff-whole">{from} →</span> <span className="diff-whole">{to}</span>
    </>
  );
}

/** Bytes moved per region, then the buffers that changed region, most bytes moved first. */
export function MovedView({ moved, focus, onFocus }: MovedViewProps) {
  return (
    <section aria-labelledby="diff-moved-title" data-testid="diff-moved">
      <h3 id="diff-moved-title" className="diff-title">
        Bytes moved over one inference
      </h3>
      <DataTable className="diff-table diff-moved-regions" columns={['region', 'A', 'B', 'change']}>
        {moved.regions.map((r) => (
          <tr key={r.name} data-testid="diff-moved-region" data-region={r.name} data-moved-a={r.movedA} data-moved-b={r.movedB}>
            <td>{r.name}</td>
            <BytesCell bytes={r.movedA} />
            <BytesCell bytes={r.movedB} />
            <td className={r.delta > 0 ? 'diff-up' : r.delta < 0 ? 'diff-down' : undefined}>{signedBytes(r.delta)}</td>
          </tr>
        ))}
      </DataTable>
      {moved.buffers.length === 0 ? (
        <p className="muted">No buffer changed region.</p>
      ) : (
        <DataTable className="diff-table diff-moved-buffers" testId="diff-moved-buffers" columns={['moved', 'buffer', 'region A → B', 'bytes moved']}>
          {moved.buffers.slice(0, LISTED).map((m) => {
            const f = moveFocus(m);
            const picked = focus?.label === f.label;
            return (
              <tr key={`${m.idA}:${m.idB}`} data-testid="diff-moved-buffer" data-direction={m.direction} data-moved={Math.max(m.movedA, m.movedB)} aria-selected={picked}>
                <td>
                  <span className={`diff-status diff-status-${m.direction === 'to-slow' ? 'grown' : m.direction === 'to-fast' ? 'shrunk' : 'moved'}`}>{DIRECTION[m.direction]}</span>
                </td>
                <NameCell name={m.name} className="diff-name" onClick={() => onFocus(picked ? undefined : f)} />
                <td>
                  {/* wraps after the arrow; a long name breaks where it must */}
                  {m.regionA}&nbsp;→ {m.regionB}
                </td>
                <td>{m.movedA === m.movedB ? formatBytes(m.movedB) : <Change from={formatBytes(m.movedA)} to={formatBytes(m.movedB)} />}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {moved.buffers.length > LISTED && <p className="muted">{moved.buffers.length - LISTED} more not listed.</p>}
    </section>
  );
}
