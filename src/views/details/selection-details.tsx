// What is selected, in words: a node (op, step, attributes and typed inputs
// and outputs, its buffers), a buffer (its facts, producer and readers) or a
// step (the executing node and every live buffer with the bytes it adds,
// largest first); a buffer's tensor can be given a shape, a scratch buffer
// shows the rule that sized it, a spilled one why it left the region it wanted. Every name links to
// its selection.

import type { ReactNode } from 'react';
import type { InferredModel } from '../../model/inferred';
import type { ModelPlan } from '../../planner/plan';
import { formatBytes, formatShape } from '../../shared/format';
import type { Selection } from '../../store/state';
import { bufferFacts, modelLookup, type HeapData } from '../heap/heap-data';
import { KIND_CLASSES, kindText } from '../heap/buffer-classes';
import { liveAtStep } from '../../planner/assembly/live-at';
import { ConstantInputs } from './constant-inputs';
import { NodeSignature } from './node-signature';
import { LiveList, UNKNOWN_COUNTED } from './live-list';
import { peakText } from '../plan-words';
import { ShapeField } from '../panels/binding-fields';
import { MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { LongName } from '../long-name';
import { quantizationText } from '../quantization';
import { offsetText, paddedSizeTitle, paddingWords, reservedText, scratchRuleText, sharedBlockSteps, sharersOf, sharingRuleWords, spillText } from '../buffer-words';
import { plannedSizeOf, plannedSizeWords } from '../planned-size';
import { kvBoxOf } from '../graph/layout/kv-boxes';
import { graphGroups } from '../graph/groups/groups';
import { scratchRegionText } from '../../planner/explain/scratch-region-words';

/** Props of SelectionDetails. */
export interface SelectionDetailsProps {
  readonly model: InferredModel;
  readonly data: HeapData | undefined;
  readonly selection: Selection;
  readonly onSelect: (selection: Selection | undefined) => void;
}

/** Where the plan runs a node: its compute-unit function (M3) and why it is or is not in a fusion unit (M2, M5). */
function NodePlacement({ plan, node }: { readonly plan: ModelPlan; readonly node: string }) {
  const fn = plan.functions.length > 1 ? plan.functions.find((f) => f.nodes.includes(node)) : undefined;
  // Saved plans written before fusion explanations existed lack the field.
  const fusion = (plan.fusionExplanations ?? []).find((e) => e.node === node);
  if (fn === undefined && fusion === undefined) return null;
  return (
    <div data-testid="node-placement">
      {fn !== undefined && (
        <p>
          runs on <strong>{fn.unit}</strong> in function <span className="mono">{shortName(fn.name)}</span>
        </p>
      )}
      {fusion !== undefined && (
        <p data-testid="fusion-reason">
          {fusion.unit !== undefined ? (
            <>
              in fusion unit <strong className="mono">{shortName(fusion.unit)}</strong>:{' '}
            </>
          ) : (
            <>not fused: </>
          )}
          <LongName text={fusion.reason} max={MESSAGE_CHARS} />
        </p>
      )}
    </div>
  );
}

/** Details of the selection. */
export function SelectionDetails({ model, data, selection, onSelect }: SelectionDetailsProps) {
  const lookup = modelLookup(model);
  const bufferLink = (i: number) => {
    const b = data!.plan.buffers[i]!;
    return (
      <li key={b.id}>
        <button type="button" className="link-button mono truncate" title={titleText(b.name)} onClick={() => onSelect({ kind: 'buffer', buffer: b.id })}>
          {shortName(b.name)}
        </button>
        <span className="muted live-figures figure" title={paddedSizeTitle(b)}>
          {formatBytes(b.size)}
          {paddedSizeTitle(b) !== undefined && <span className="planned-mark" aria-label={paddedSizeTitle(b)}>*</span>}
        </span>
      </li>
    );
  };
  const nodeLink = (name: string) => (
    <button type="button" className="link-button mono" title={titleText(name)} onClick={() => onSelect({ kind: 'node', node: name })}>
      {shortName(name)}
    </button>
  );
  const tensorLink = (name: string) => {
    const b = data?.plan.buffers.find((x) => x.name === name);
    if (b === undefined) return undefined;
    return (
      <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'buffer', buffer: b.id })}>
        {shortName(name)}
      </button>
    );
  };
  if (selection.kind === 'node') {
    const index = lookup.nodes.get(selection.node);
    const node = index === undefined ? undefined : model.nodes[index];
    const own = data === undefined ? [] : data.plan.buffers.flatMap((b, i) => (b.node === selection.node ? [i] : []));
    const step = data?.plan.steps.findIndex((s) => s.node === selection.node);
    return (
      <div data-testid="selection-details" data-kind="node">
        <p>
          <strong className="selection-op" title={node?.opType === undefined ? undefined : titleText(node.opType)} data-testid="selection-op">
            {shortName(node?.opType ?? '?')}
          </strong>{' '}
          <span className="mono">
            <LongName text={selection.node} />
          </span>
          {step !== undefined && step >= 0 && <> at step {step}</>}
        </p>
        {node !== undefined && <NodeSignature model={model} node={node} tensorLink={tensorLink} />}
        {index !== undefined && <ConstantInputs model={model} plan={data?.plan} index={index} />}
        {data !== undefined && <NodePlacement plan={data.plan} node={selection.node} />}
        <ul className="live-list">{own.map(bufferLink)}</ul>
      </div>
    );
  }
  if (selection.kind === 'buffer') {
    const i = data?.indexOfId.get(selection.buffer);
    if (data === undefined || i === undefined) return null;
    const f = bufferFacts(data, model, lookup, i);
    const readers = lookup.values.get(f.buffer.name)?.consumers ?? [];
    const tensor = f.buffer.kind !== 'scratch' && lookup.values.has(f.buffer.name);
    const scratch = scratchRuleText(f.buffer);
    const scratchRegion = scratchRegionText(data.plan, f.buffer);
    const spilled = spillText(data.plan, f.buffer);
    const sharers = sharersOf(data.plan.buffers, f.buffer.id);
    const block = sharedBlockSteps(f.buffer, sharers);
    const value = lookup.values.get(f.buffer.name);
    const planned = value === undefined || f.buffer.kind === 'scratch' ? undefined : plannedSizeOf(data.plan, value);
    const cacheBox = f.buffer.kind === 'scratch' ? undefined : kvBoxOf(model, data.plan, f.buffer.name);
    // the box is named as the graph opens, constants folded: the graph's Constants toggle is its own, not the store's
    const foldsConstants = cacheBox !== undefined && graphGroups(model, data.plan, false).folded.some(Boolean);
    return (
      <div data-testid="selection-details" data-kind="buffer">
        <p className="mono">
          <strong>
            <LongName text={f.buffer.name} />
          </strong>
        </p>
        <p data-testid="buffer-facts">
          {kindText(f.buffer.kind, KIND_CLASSES[data.kindClass[i]!] === 'kv', f.buffer.state === true)} · {f.buffer.kind === 'scratch' ? '' : <>{formatShape(f.shape)} {f.dtype ?? ''} · </>}
          {planned === undefined ? reservedText(f.buffer) : <span data-testid="buffer-planned-size">{plannedSizeWords(planned)}{paddingWords(f.buffer)}</span>} at {offsetText(f.buffer.offset)} in {f.buffer.region} · steps [{f.buffer.start}, {f.buffer.end})
        </p>
        {scratch !== undefined && <p data-testid="buffer-scratch-rule">{scratch}</p>}
        {scratchRegion !== undefined && <p data-testid="buffer-scratch-region">{scratchRegion}</p>}
        {spilled !== undefined && (
          <p data-testid="buffer-spilled">
            <LongName text={spilled} max={MESSAGE_CHARS} />
          </p>
        )}
        {f.quantization !== undefined && <p data-testid="buffer-quantization">quantized: {quantizationText(f.quantization)}</p>}
        {f.buffer.node && <p>produced by {nodeLink(f.buffer.node)}</p>}
        {cacheBox !== undefined && (
          <p data-testid="buffer-graph-box">
            in the graph&apos;s box <strong>{cacheBox.title}</strong>{foldsConstants ? ' (constants folded)' : ''}, which holds {cacheBox.tensors.length === 1 ? 'this tensor alone' : `${cacheBox.tensors.length} tensors:`}
            {cacheBox.tensors.length > 1 && cacheBox.tensors.map((name, i) => <span key={name}>{i === 0 ? ' ' : ', '}{tensorLink(name) ?? <span className="mono">{shortName(name)}</span>}</span>)}
          </p>
        )}
        {f.parent !== undefined && (
          <p data-testid="buffer-shares">
            shares the bytes of{' '}
            <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'buffer', buffer: f.parent!.id })}>
              {shortName(f.parent.name)}
            </button>
          </p>
        )}
        {sharers.length > 0 && (
          <p data-testid="buffer-shared-by">
            its bytes are shared by{' '}
            {sharers.slice(0, 12).map((b, k) => (
              <span key={b.id}>
                {k > 0 && ', '}
                <button type="button" className="link-button mono" onClick={() => onSelect({ kind: 'buffer', buffer: b.id })}>
                  {shortName(b.name)}
                </button>{' '}
                ({b.node === undefined ? '' : `${shortName(b.node)}, `}{sharingRuleWords(b.alias!.rule)}, up to step {b.end})
              </span>
            ))}
            {sharers.length > 12 && ` and ${sharers.length - 12} more`}: the block holds steps [{block[0]}, {block[1]})
          </p>
        )}
        {readers.length > 0 && (
          <p>
            read by{' '}
            {readers.slice(0, 12).map((n, k) => (
              <span key={n}>
                {k > 0 && ', '}
                {nodeLink(model.nodes[n]!.name)}
              </span>
            ))}
          </p>
        )}
        {/* Only a tensor of the model has a shape to give; scratch is sized by its rule. */}
        {tensor && <ShapeField key={f.buffer.name} tensor={f.buffer.name} inferred={f.shape} />}
      </div>
    );
  }
  const complete = data === undefined || data.plan.complete;
  return <StepDetails data={data} step={selection.step} complete={complete} nodeLink={nodeLink} onSelect={onSelect} />;
}

/** A step: its node, then per region every buffer live there with the bytes it adds, and their total. */
function StepDetails({ data, step, complete, nodeLink, onSelect }: { readonly data: HeapData | undefined; readonly step: number; readonly complete: boolean; readonly nodeLink: (name: string) => ReactNode; readonly onSelect: (selection: Selection) => void }) {
  const info = data?.plan.steps[step];
  const regions = data === undefined ? [] : data.lanes.map((lane) => ({ name: lane.name, live: liveAtStep(data.plan.buffers, step, lane.name) }));
  const count = regions.reduce((sum, r) => sum + r.live.length, 0);
  const total = regions.reduce((sum, r) => sum + r.live.reduce((t, b) => t + b.counted, 0), 0);
  return (
    <div data-testid="selection-details" data-kind="step">
      <p>
        Step {step}: {info ? <>{shortName(info.opType)} {nodeLink(info.node)}</> : 'no node'}
      </p>
      <p className="muted" data-testid="live-count" data-bytes={total} data-complete={complete} title={complete ? undefined : UNKNOWN_COUNTED}>
        {count} buffers live, {peakText(total, complete)}
      </p>
      {data !== undefined &&
        regions
          .filter((r) => r.live.length > 0)
          .map((r) => (
            <section key={r.name} aria-label={`Live in ${r.name}`} data-testid="step-region" data-region={r.name}>
              {regions.length > 1 && <h4 className="explain-heading">{r.name}</h4>}
              <LiveList plan={data.plan} live={r.live} label={`Buffers live in ${r.name} at step ${step}, largest first`} rowTestId="step-buffer" complete={complete} onSelect={onSelect} />
            </section>
          ))}
    </div>
  );
}
