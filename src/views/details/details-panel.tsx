// The details pane: what is selected (or a hint), then the explanation of the
// plan on screen.

import { useActions, useAppStore } from '../../store/context';
import { selectPlan, selectReport } from '../../store/selectors';
import { cachedHeapData } from '../heap/heap-panel';
import { PaneToolbar } from '../pane-toolbar';
import { shortName, titleText } from '../../shared/short-name';
import { Explanation } from './explanation';
import { SelectionDetails } from './selection-details';
import './details.css';

/** Selection details and the plan's explanation. */
export function DetailsPanel() {
  const model = useAppStore((s) => s.model?.inferred);
  const plan = useAppStore(selectPlan);
  const selection = useAppStore((s) => s.selection);
  const lost = useAppStore((s) => s.selectionLost);
  const report = useAppStore(selectReport);
  const { select } = useActions();
  if (model === undefined) return null;
  const data = plan === undefined ? undefined : cachedHeapData(plan, model).data;
  return (
    <section className="pane details-pane" aria-labelledby="details-title" data-testid="details-pane">
      <PaneToolbar titleId="details-title" title="Details">
        {selection && (
          <button type="button" className="button button-small" onClick={() => select(undefined)}>
            Clear
          </button>
        )}
      </PaneToolbar>
      <div className="details-body">
        <section aria-label="Selection" className="details-section">
          {selection ? (
            <SelectionDetails model={model} data={data} selection={selection} onSelect={select} />
          ) : (
            <>
              {lost !== undefined && (
                <p className="details-lost" role="status" data-testid="selection-lost" title={titleText(lost)}>
                  The buffer selected before, '{shortName(lost)}', is not in this plan.
                </p>
              )}
              <p className="muted">Select a node in the graph, a buffer in the heap, or a step on its axis (arrow keys walk through time).</p>
            </>
          )}
        </section>
        {plan && (
          <section aria-label="Why this peak" className="details-section">
            <h3 className="details-heading">Why this peak</h3>
            <Explanation plan={plan} model={model} report={report} onSelect={select} />
          </section>
        )}
      </div>
    </section>
  );
}
