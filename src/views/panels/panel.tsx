// A titled section of the side bar: heading, optional count badge, body.

import type { ReactNode } from 'react';
import './panels.css';

/** Props of Panel. */
export interface PanelProps {
  readonly title: string;
  readonly count?: number; // shown as a badge after the title
  readonly tone?: 'neutral' | 'warning';
  readonly testId?: string;
  readonly children: ReactNode;
}

/** A titled, labelled section; the heading names the region for assistive technology. */
export function Panel({ title, count, tone = 'neutral', testId, children }: PanelProps) {
  const headingId = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={testId}>
      {/* The count stands beside the heading, not in it: the heading (and the section it names) is read as the title alone. */}
      <div className="panel-title">
        <h2 className="panel-heading" id={headingId}>
          {title}
        </h2>
        {count !== undefined && <span className={`badge badge-${tone}`}>{count.toLocaleString('en-US')}</span>}
      </div>
      <div className="panel-body">{children}</div>
    </section>
  );
}
