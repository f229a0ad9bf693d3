// Why the plan is as large as it is: per region, peak against lower bound and
// the gap; the waste split into holes, alignment padding and scratch growth;
// for a .tflite model planned for TensorFlow Lite Micro, the runtime's own plan
// beside heapscope's and the arena to declare;
// the peak step and the buffers live there, why each is alive, and evaluated
// suggestions; the strategy comparison; fusion
// traffic saved; diagnostics, including values of unknown shape and why.

import { useMemo } from 'react';
import type { InferredModel } from '../../model/inferred';
import type { InspectReport } from '../../model/inspect-report';
import { planLowerEstimate } from '../../planner/assembly/assumptions';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes } from '../../shared/format';
import { MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { planAssumptions } from '../../store/assumptions';
import { planFits, regionOverBy } from '../../store/fit-words';
import type { Selection } from '../../store/state';
import { useAppStore } from '../../store/context';
import { toldByLinkNotice } from '../../store/link-told';
import { BytesCell, DataTable } from '../data-table';
import { peakText } from '../plan-words';
import { LongName } from '../long-name';
import { atBoundText, fitSuggestions } from './fit-words';
import { kvPastKeptText } from '../../planner/explain/kv-past-words';
import { currentSuggestions } from '../../store/suggestions';
import { wasteBaseWords } from '../bound-words';
import { PeakLive } from './peak-live';
import { PeakReasons } from './peak-reasons';
import { PlanHeadline } from './plan-headline';
import { RuntimePlanBlock } from './runtime-plan';
import { Suggestions } from './suggestions';
import { StrategyComparison } from './strategy-comparison';

/** Props of Explanation. */
export interface ExplanationProps {
  readonly plan: ModelPlan;
  readonly model: InferredModel; // the inference the plan was made from
  readonly report: InspectReport | undefined;
  readonly onSelect: (selection: Selection) => void;
}

/** The explanation of a plan. */
export function Explanation({ plan, model, report, onSelect }: ExplanationProps) {
  const { complete } = plan;
  const fits = planFits(plan);
  const lowerEstimate = planLowerEstimate(plan);
  const unknownCount = planAssumptions(plan, model).unknown.length;
  return (
    <div className="explanation" data-testid="explanation" data-peak={plan.peak} data-lower-bound={plan.lowerBound} data-complete={complete} data-fits={fits}>
      <PlanHeadline plan={plan} complete={complete} fits={fits} lowerEstimate={lowerEstimate} unknownCount={unknownCount} />
      <RegionsTable plan={plan} complete={complete} />
      <WasteLine plan={plan} complete={complete} />
      {plan.runtimePlan !== undefined && <RuntimePlanBlock runtime={plan.runtimePlan} peak={plan.peak} />}
      <PeakLive plan={plan} complete={complete} onSelect={onSelect} />
      {plan.explanation.kvPastKept !== undefined && (
        <p className="explanation-line" data-testid="kv-past-kept">
          Assumes {kvPastKeptText(plan.explanation.kvPastKept)}.
        </p>
      )}
      <PeakReasons plan={plan} />
      <Suggestions />
      <StrategyComparison plan={plan} />
      <FusionTraffic plan={plan} complete={complete} onSelect={onSelect} />
      <Diagnostics plan={plan} model={model} report={report} />
    </div>
  );
}

function gapText(peak: number, bound: number): string {
  return bound > 0 ? `+${((peak / bound - 1) * 100).toFixed(1)} %` : '—';
}

function RegionsTable({ plan, complete }: { readonly plan: ModelPlan; readonly complete: boolean }) {
  return (
    <DataTable
      className="regions-table"
      label="Peak and lower bound per memory region"
      columns={['Region', 'Peak', 'Bound', 'Gap']}
      footer={
        plan.regions.length > 1 ? (
          <tr data-testid="total-row">
            <th scope="row">total</th>
            <td data-label="Peak">{peakText(plan.peak, complete)}</td>
            <BytesCell bytes={plan.lowerBound} label="Bound" />
            <td data-label="Gap">{gapText(plan.peak, plan.lowerBound)}</td>
          </tr>
        ) : undefined
      }
    >
      {plan.regions.map((r) => (
        <tr key={r.name} data-testid="region-row" data-region={r.name} data-peak={r.peak} data-lower-bound={r.lowerBound} data-over-by={regionOverBy(r)} className={regionOverBy(r) > 0 ? 'region-over' : undefined}>
          <th scope="row">
            {r.name}
            {r.fast && <span className="region-fast"> fast</span>}
          </th>
          <td title={regionTitle(r)} data-label="Peak">
            {peakText(r.peak, complete)}
          </td>
          <BytesCell bytes={r.lowerBound} exact label="Bound" />
          <td data-label="Gap">{gapText(r.peak, r.lowerBound)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** A region's peak in bytes and, when it has one, its size limit. */
function regionTitle(r: ModelPlan['regions'][number]): string {
  const limit = r.sizeLimit === undefined ? '' : `; limit ${formatBytes(r.sizeLimit)}${regionOverBy(r) > 0 ? `, ${formatBytes(regionOverBy(r))} over` : ''}`;
  return `${r.peak.toLocaleString('en-US')} bytes${limit}`;
}

/** The waste above the bound, as a stacked bar and a sentence. */
function WasteLine({ plan, complete }: { readonly plan: ModelPlan; readonly complete: boolean }) {
  const { waste } = plan;
  const suggestions = useAppStore(currentSuggestions);
  const found = fitSuggestions(suggestions?.status === 'done', suggestions?.list ?? []);
  if (plan.optimal && complete) {
    const file = plan.runtimePlan?.filePlan;
    if (file?.insideCustomOp !== undefined && file.head < plan.peak) {
      // The bound keeps apart every two tensors live at one step; a custom operator may use its tensors one after another.
      return (
        <p className="explanation-line" data-testid="optimal">
          Every region is at its lower bound: no plan that keeps apart the tensors live at one step can be smaller. The file&apos;s own plan takes{' '}
          {formatBytes(file.head)} by sharing bytes between tensors of the custom operator {shortName(file.insideCustomOp)}, which may use them one after another; heapscope
          cannot check that.
        </p>
      );
    }
    return (
      <p className="explanation-line" data-testid="optimal">
        {atBoundText(planFits(plan), (plan.runtimePlan?.refused ?? []).length > 0, found)}
      </p>
    );
  }
  // with sizes unknown the plan claims no optimum: what its placement reached for the sizes known is knownSizesProof
  const knownProof = plan.search?.knownSizesProof;
  if (plan.optimal || knownProof === 'lower-bound') return <p className="explanation-line">The plan reaches the bound of the sizes known; tensors of unknown size are not counted in either.</p>;
  if (plan.regions.length > 1 && (knownProof === 'region-bounds' || plan.regions.every((r) => r.optimal))) {
    // a split plan: each region's bound counts the buffers the split gave it; the total's holds for any split
    return (
      <p className="explanation-line" data-testid="regions-at-bound">
        Every region is at its lower bound{complete ? '' : ' for the sizes known'}: no plan that splits the buffers between the regions this way can be smaller. The total is{' '}
        {formatBytes(plan.peak - plan.lowerBound)} above the lower bound of any split ({formatBytes(plan.lowerBound)}): the cost of this split.
      </p>
    );
  }
  const parts = [
    { key: 'holes', label: 'holes (fragmentation)', bytes: waste.holes },
    { key: 'padding', label: 'alignment padding', bytes: waste.alignmentPadding },
    { key: 'scratch', label: 'scratch growth', bytes: waste.scratchGrowth },
  ];
  const total = Math.max(1, waste.total);
  return (
    <div className="waste" data-testid="waste" data-holes={waste.holes} data-padding={waste.alignmentPadding} data-scratch={waste.scratchGrowth}>
      <p className="explanation-line">
        <strong>{formatBytes(waste.total)}</strong> above <span data-testid="waste-base">{wasteBaseWords(plan)}</span>:
      </p>
      <div className="waste-bar" aria-hidden="true">
        {parts.map((p) => (p.bytes > 0 ? <span key={p.key} className={`waste-${p.key}`} style={{ width: `${(100 * p.bytes) / total}%` }} /> : undefined))}
      </div>
      <ul className="waste-list">
        {parts.map((p) => (
          <li key={p.key}>
            <span className={`swatch waste-${p.key}`} aria-hidden="true" />
            {p.label}
            <span className="mono">{formatBytes(p.bytes)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** How many fusion units are listed by traffic saved. */
const UNITS_LISTED = 5;

/** DRAM traffic before and after fusion, and the units that save the most. */
function FusionTraffic({ plan, complete, onSelect }: { readonly plan: ModelPlan; readonly complete: boolean; readonly onSelect: (selection: Selection) => void }) {
  if (plan.fusionUnits.length === 0) return null;
  const { before, after } = plan.traffic;
  const saved = before - after;
  const tfu = plan.fusionUnits.filter((u) => u.kind === 'tfu').length;
  const dwPw = plan.fusionUnits.length - tfu;
  const kinds = [tfu > 0 ? `${tfu} template unit${tfu === 1 ? '' : 's'}` : '', dwPw > 0 ? `${dwPw} dw-pw unit${dwPw === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
  const top = [...plan.fusionUnits].sort((a, b) => b.trafficSaved - a.trafficSaved).slice(0, UNITS_LISTED);
  return (
    <section className="explain-block" aria-label="Fusion traffic" data-testid="fusion-traffic" data-before={before} data-after={after}>
      <h4 className="explain-heading">Fusion traffic</h4>
      <p className="explanation-line">
        DRAM traffic {formatBytes(before)} → {formatBytes(after)}: <strong>{formatBytes(saved)} saved</strong>
        {before > 0 ? ` (${((100 * saved) / before).toFixed(1)} %)` : ''} by {kinds}.
        {!complete && <span data-testid="traffic-estimate"> Of the sizes known: tensors of unknown size move no bytes in these figures.</span>}
      </p>
      <ol className="live-table" aria-label="Fusion units saving the most traffic">
        {top.map((u) => (
          <li key={u.name} data-testid="fusion-unit">
            <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'node', node: u.nodes[0]! })} title={titleText(u.nodes.map((n) => shortName(n)).join(', '))}>
              {shortName(u.name)}
            </button>
            <span className="live-bytes">{formatBytes(u.trafficSaved)} saved</span>
            <span className="live-origin muted">
              {u.nodes.length} ops · {formatBytes(u.onChipBytes)} on chip in {u.region}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The plan's diagnostics and the values whose size is unknown, with their cause. */
function Diagnostics({ plan, model, report }: { readonly plan: ModelPlan; readonly model: InferredModel; readonly report: InspectReport | undefined }) {
  const toldByLink = useAppStore((s) => s.linkLeftOutBindings);
  // A link's shape or input value for what the model lacks is told once, by the link notice.
  const diagnostics = useMemo(() => {
    const told = toldByLinkNotice(model.diagnostics, toldByLink);
    return plan.diagnostics.filter((d) => !told(d));
  }, [plan.diagnostics, model.diagnostics, toldByLink]);
  const unknown = report?.unknownShapes ?? [];
  if (diagnostics.length === 0 && unknown.length === 0) return null;
  return (
    <section className="explain-block" aria-label="Diagnostics" data-testid="plan-diagnostics">
      <h4 className="explain-heading">Diagnostics</h4>
      <ul className="plan-diagnostics">
        {diagnostics.map((d, i) => (
          <li key={`d${i}`}>
            <span className="tag tag-muted">{d.code}</span> <LongName text={d.message} max={MESSAGE_CHARS} />
          </li>
        ))}
        {unknown.slice(0, 6).map((u) => (
          <li key={`u${u.name}`}>
            <span className="tag tag-muted">unknown shape</span> <span className="mono">{shortName(u.name)}</span>
            {u.producer === null ? '' : ` (${shortName(u.producer)})`}: {u.reason}; not planned
          </li>
        ))}
        {unknown.length > 6 && <li>and {unknown.length - 6} more values of unknown shape (see the side bar)</li>}
      </ul>
    </section>
  );
}
