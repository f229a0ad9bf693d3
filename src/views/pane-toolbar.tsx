// The bar at the top of a pane: its title, which names the pane's section for
// assistive technology, then the pane's own tools.

import type { ReactNode } from 'react';

/** Props of PaneToolbar. */
export interface PaneToolbarProps {
  readonly titleId: string; // the heading's id, which the pane's section names in aria-labelledby
  readonly title: string;
  readonly className?: string; // the pane's own class beside `pane-toolbar`
  readonly children?: ReactNode; // the tools after the title
}

/** A pane's title bar (styled in shell.css). */
export function PaneToolbar({ titleId, title, className, children }: PaneToolbarProps) {
  return (
    <div className={className === undefined ? 'pane-toolbar' : `pane-toolbar ${className}`}>
      <h2 id={titleId} className="pane-title">
        {title}
      </h2>
      {children}
    </div>
  );
}
