// The numbers of a saved plan shown alone: what it was made from and for, its
// peak and lower bound per region, and its fusion units, as saved. Names come
// from the file, which anyone may have written: each is shown as text, cut to
// one line with an ellipsis, whole (up to TITLE_CHARS) in its title.

import type { PlanFile } from '../../planner/assembly/plan-file';
import { formatBytes } from '../../shared/format';
import { shortName, titleText } from '../../shared/short-name';
import { BytesCell, DataTable } from '../data-table';
import { peakText } from '../plan-words';

/** Facts of `file`, read from the file (nothing is planned again). */
export function SavedPlanFacts({ file }: { readonly file: PlanFile }) {
  const { plan, settings } = file;
  const dims = Object.entries(settings.dims);
  const { complete } = plan;
  return (
    <div className="diff-view" data-testid="saved-plan-facts">
      <section aria-labelledby="saved-plan-title">
        <h3 id="saved-plan-title" className="diff-title saved-plan-name" title={titleText(file.model)} data-testid="saved-plan-model">
          {shortName(file.model)}
        </h3>
        <dl className="tool-grid saved-plan-grid">
          <dt>peak</dt>
          <dd>
            {peakText(plan.peak, complete)} ({plan.peak.toLocaleString('en-US')} B){complete ? '' : ', a lower estimate: some sizes were unknown'}
          </dd>
          <dt>lower bound</dt>
          <dd>
            {formatBytes(plan.lowerBound)} ({plan.lowerBound.toLocaleString('en-US')} B)
          </dd>
          <dt>target</dt>
          <OneLine text={settings.target === plan.target ? plan.target : `${settings.target} (${plan.target})`} />
          <dt>strategy</dt>
          <OneLine text={plan.strategy} />
          <dt>dims</dt>
          <dd>{dims.length === 0 ? 'none' : dims.map(([k, v]) => `${shortName(k, 40)}=${v}`).join(', ')}</dd>
          <dt>buffers</dt>
          <dd>{plan.buffers.length.toLocaleString('en-US')}</dd>
          <dt>fusion units</dt>
          <dd>{plan.fusionUnits.length}</dd>
        </dl>
      </section>
      <section aria-labelledby="saved-regions-title">
        <h3 id="saved-regions-title" className="diff-title">
          Regions
        </h3>
        <DataTable className="diff-table saved-regions" columns={['region', 'peak', 'lower bound']} testId="saved-plan-regions">
          {plan.regions.map((r) => (
            <tr key={r.name}>
              <td title={titleText(r.name)} data-testid="saved-plan-region">
                {shortName(r.name)}
              </td>
              <td>{peakText(r.peak, complete)}</td>
              <BytesCell bytes={r.lowerBound} />
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}

/** A value of the facts on one line, cut with an ellipsis, whole in its title. */
function OneLine({ text }: { readonly text: string }) {
  return (
    <dd className="saved-plan-name" title={titleText(text)}>
      {shortName(text)}
    </dd>
  );
}
