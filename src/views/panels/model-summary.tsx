// The model summary: the file, its format and producer, opsets (ONNX) or schema
// version (TensorFlow Lite), and the counts and sizes that matter for memory
// (nodes, activations and their bytes, weights).

import type { ReactNode } from 'react';
import { useAppStore } from '../../store/context';
import { selectReport, selectWeights } from '../../store/selectors';
import { formatBytes, formatCount } from '../../shared/format';
import { shortName, titleText } from '../../shared/short-name';
import { Panel } from './panel';
import type { InspectReport } from '../../model/inspect-report';

/** Facts of the shown model; nothing before a model is open. */
export function ModelSummary() {
  const model = useAppStore((s) => s.model);
  const report = useAppStore(selectReport);
  const weights = useAppStore(selectWeights);
  if (model === undefined || report === undefined) return null;
  const opsets = report.opsets.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ');
  const tflite = model.inferred.format === 'tflite';
  const { decodeMs, inferMs } = model.timings;
  return (
    <Panel title="Model" testId="model-summary">
      <div className="stats">
        <Stat label="Nodes" value={formatCount(report.nodes)} testId="stat-nodes" />
        <Stat label="Activations" value={formatCount(report.activations)} testId="stat-activations" />
        <ActivationStat report={report} />
      </div>
      <dl className="facts">
        <Fact term="File" testId="fact-file">
          <span className="truncate" title={titleText(model.url ?? model.name)}>
            {shortName(model.name)}
          </span>
        </Fact>
        <Fact term="Size">{formatBytes(model.size)}</Fact>
        <Fact term="Format" testId="fact-format">
          {tflite ? `TensorFlow Lite, schema ${report.irVersion}` : 'ONNX'}
        </Fact>
        <Fact term="Producer" testId="fact-producer">{report.producer || <span className="muted">not given</span>}</Fact>
        {!tflite && <Fact term="IR version">{report.irVersion}</Fact>}
        {!tflite && <Fact term="Opsets">{opsets || <span className="muted">none</span>}</Fact>}
        <Fact term="Weights" testId="fact-weights">
          {formatCount(weights.count)} · {weights.unknown > 0 ? '≥ ' : ''}
          {formatBytes(weights.bytes)}
          {weights.fromConstants > 0 && <span className="muted"> incl. {formatCount(weights.fromConstants)} from constants</span>}
          {weights.unknown > 0 && <span className="muted"> ({formatCount(weights.unknown)} of unknown size)</span>}
        </Fact>
        <Fact term="Constants" testId="fact-constants">
          {formatCount(report.constants)} <span className="muted">computed from constants</span>
        </Fact>
        <Fact term="Unknown shapes" testId="fact-unknown">
          {report.unknownShapes.length === 0 ? 'none' : formatCount(report.unknownShapes.length)}
          {/* the heap's banner counts the If/Loop/Scan bodies' tensors too */}
          {report.bodyNodes > 0 && <span className="muted"> in the main graph</span>}
        </Fact>
        <Fact term="Time">
          {decodeMs === undefined ? '' : `decode ${formatMs(decodeMs)} · `}infer {formatMs(inferMs)}
        </Fact>
      </dl>
    </Panel>
  );
}

/**
 * The bytes of the main graph's run-time tensors, each in memory of its own
 * (what the heap's plan improves on by reuse): a lower estimate when some
 * are unsized, and said to be the main graph's when If/Loop/Scan bodies hold
 * more (the heap plans those; the sum here does not see them).
 */
function ActivationStat({ report }: { report: InspectReport }) {
  const bodies = report.bodyNodes;
  const lower = report.unknownShapes.length > 0;
  const notes = [bodies > 0 ? 'main graph' : '', lower ? 'lower estimate' : ''].filter(Boolean);
  const bytes = `${formatCount(report.activationBytes)} bytes if every run-time tensor had memory of its own (the heap's plan reuses it)`;
  return (
    <Stat
      label={`Activation memory without reuse${notes.length === 0 ? '' : ` (${notes.join(', ')})`}`}
      value={`${lower ? '≥ ' : ''}${formatBytes(report.activationBytes)}`}
      title={bodies === 0 ? bytes : `${bytes}, in the main graph; the tensors inside the bodies of its ${formatCount(bodies)} If/Loop/Scan ${bodies === 1 ? 'node' : 'nodes'} are not counted here (the heap plans them)`}
      testId="stat-activation-bytes"
    />
  );
}

function Stat({ label, value, title, testId }: { label: string; value: string; title?: string; testId: string }) {
  return (
    <div className="stat">
      <div className="stat-value" data-testid={testId} title={title}>
        {value}
      </div>
      <div className="stat-label">{label}</div>
    </div>
  );
}

function Fact({ term, testId, children }: { term: string; testId?: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${formatCount(Math.round(ms))} ms`;
}
