// What the page could not work out: run-time tensors whose shape is unknown
// (with the reason) and the decoder's and inference's diagnostics.

import { useMemo } from 'react';
import { MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { useAppStore } from '../../store/context';
import { toldByLinkNotice } from '../../store/link-told';
import { selectReport } from '../../store/selectors';
import { LongName } from '../long-name';
import { Panel } from './panel';

/** Longest list shown before "and N more". */
const LIST_LIMIT = 200;

/** Unknown shapes of the shown model; nothing when every shape is known. */
export function UnknownShapesPanel() {
  const unknown = useAppStore((s) => selectReport(s)?.unknownShapes);
  if (unknown === undefined || unknown.length === 0) return null;
  return (
    <Panel title="Unknown shapes" count={unknown.length} tone="warning" testId="unknown-shapes">
      <ul className="issues">
        {unknown.slice(0, LIST_LIMIT).map((u) => (
          <li key={u.name} className="issue">
            <span className="issue-subject mono" title={titleText(u.name)}>
              {shortName(u.name)}
            </span>
            <span className="issue-where">{u.producer === null ? 'graph input' : shortName(u.producer)}</span>
            <span className="issue-text">
              <LongName text={u.reason} max={MESSAGE_CHARS} />
            </span>
          </li>
        ))}
      </ul>
      <More total={unknown.length} />
    </Panel>
  );
}

/** Diagnostics of the shown model; nothing when there are none. */
export function DiagnosticsPanel() {
  const all = useAppStore((s) => selectReport(s)?.diagnostics);
  const toldByLink = useAppStore((s) => s.linkLeftOutBindings);
  // A link's shape or input value for what the model lacks is told once, by the link notice.
  const diagnostics = useMemo(() => {
    if (all === undefined) return undefined;
    const told = toldByLinkNotice(all, toldByLink);
    return all.filter((d) => !told(d));
  }, [all, toldByLink]);
  if (diagnostics === undefined || diagnostics.length === 0) return null;
  return (
    <Panel title="Diagnostics" count={diagnostics.length} testId="diagnostics">
      <ul className="issues">
        {diagnostics.slice(0, LIST_LIMIT).map((d, i) => (
          <li key={i} className="issue">
            <code className="issue-code">{d.code}</code>
            {d.node && <span className="issue-where mono">{shortName(d.node)}</span>}
            <span className="issue-text">
              <LongName text={d.message} max={MESSAGE_CHARS} />
            </span>
          </li>
        ))}
      </ul>
      <More total={diagnostics.length} />
    </Panel>
  );
}

function More({ total }: { total: number }) {
  if (total <= LIST_LIMIT) return null;
  return <p className="muted">and {(total - LIST_LIMIT).toLocaleString('en-US')} more</p>;
}
