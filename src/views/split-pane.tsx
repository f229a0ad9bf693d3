// Resizable panes: children laid out in a row or a column with a separator
// between each pair. Drag a separator (pointer) or focus it and press the arrow
// keys to move it; sizes are fractions of the container, kept per page. A
// pane can be collapsed (`hidden`): it stays mounted, out of the layout, and
// the others share its room.

import { Children, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

/** Props of SplitPane. */
export interface SplitPaneProps {
  readonly direction: 'row' | 'column';
  readonly initial: readonly number[]; // fractions, one per child, summing to 1
  readonly labels: readonly string[]; // accessible name of each separator ("Resize graph and heap")
  readonly minFraction?: number;
  readonly children: ReactNode;
  readonly className?: string;
  readonly testId?: string;
  readonly hidden?: readonly boolean[]; // per child: collapsed
}

/** Fraction moved by one arrow key press. */
const KEY_STEP = 0.02;

/** Panes with draggable separators. */
export function SplitPane({ direction, initial, labels, minFraction = 0.1, children, className, testId, hidden }: SplitPaneProps) {
  const [sizes, setSizes] = useState<readonly number[]>(initial);
  const container = useRef<HTMLDivElement>(null);
  const items = Children.toArray(children);
  const shown = items.map((_, k) => hidden?.[k] !== true);
  const visible = items.map((_, k) => k).filter((k) => shown[k]);
  /** The next shown pane after `k`, if any. */
  const nextShown = (k: number): number | undefined => visible.find((j) => j > k);
  const move = (k: number, delta: number): void => {
    const j = nextShown(k);
    if (j === undefined) return;
    setSizes((old) => {
      const a = old[k]!;
      const b = old[j]!;
      const d = Math.max(minFraction - a, Math.min(b - minFraction, delta));
      const next = [...old];
      next[k] = a + d;
      next[j] = b - d;
      return next;
    });
  };
  const onPointerDown = (k: number) => (event: PointerEvent<HTMLDivElement>) => {
    const box = container.current?.getBoundingClientRect();
    if (box === undefined) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const total = direction === 'row' ? box.width : box.height;
    let last = direction === 'row' ? event.clientX : event.clientY;
    const target = event.currentTarget;
    const onMove = (e: globalThis.PointerEvent): void => {
      const now = direction === 'row' ? e.clientX : e.clientY;
      move(k, (now - last) / total);
      last = now;
    };
    const onUp = (): void => {
      target.removeEventListener('pointermove', onMove);
      target.removeEventListener('pointerup', onUp);
    };
    target.addEventListener('pointermove', onMove);
    target.addEventListener('pointerup', onUp);
  };
  const onKeyDown = (k: number) => (event: KeyboardEvent<HTMLDivElement>) => {
    const back = direction === 'row' ? 'ArrowLeft' : 'ArrowUp';
    const forward = direction === 'row' ? 'ArrowRight' : 'ArrowDown';
    if (event.key !== back && event.key !== forward) return;
    event.preventDefault();
    move(k, event.key === forward ? KEY_STEP : -KEY_STEP);
  };
  const shownTotal = visible.reduce((sum, k) => sum + sizes[k]!, 0) || 1;
  // Normalized: tracks whose fr sum to less than 1 would leave the rest of the box empty.
  const template = visible.map((k) => `minmax(0, ${(sizes[k]! / shownTotal).toFixed(4)}fr)`).join(' 6px ') || 'minmax(0, 1fr)';
  const style = direction === 'row' ? { gridTemplateColumns: template } : { gridTemplateRows: template };
  return (
    <div ref={container} className={`split split-${direction} ${className ?? ''}`} style={style} data-testid={testId}>
      {items.map((child, k) => [
        <div key={`pane-${k}`} className="split-item" hidden={!shown[k]}>
          {child}
        </div>,
        shown[k] && nextShown(k) !== undefined && (
          <div
            key={`sep-${k}`}
            role="separator"
            tabIndex={0}
            aria-orientation={direction === 'row' ? 'vertical' : 'horizontal'}
            aria-label={labels[k]}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round((visible.filter((j) => j <= k).reduce((sum, j) => sum + sizes[j]!, 0) / shownTotal) * 100)}
            className="split-separator"
            onPointerDown={onPointerDown(k)}
            onKeyDown={onKeyDown(k)}
          />
        ),
      ])}
    </div>
  );
}
