// The model summary: the file, its format and producer, opsets (ONNX) or schema
// version (TensorFlow Lite), and the counts and sizes that matter for memory
// (nodes, activations and their bytes, and what the plan adds to them, weights).

import type { ReactNode } from 'react';
import { useAppStore } from '../../store/context';
import { selectPlan } from '../../store/selectors';
import { selectPlannedReport, selectWeights } from '../../store/planned-selectors';
import { formatBytes, formatCount } from '../../shared/format';
import { shortName, titleText } from '../../shared/short-name';
import { Panel } from './panel';
import { activationStatWords } from './activation-stat';
import { weightsWords } from './weights-words';
import { unknownShapesText } from './unknown-shapes-words';
import { planAssumptions } from '../../store/assumptions';

/** Facts of the shown model; nothing before a model is open. */
export function ModelSummary() {
  const model = useAppStore((s) => s.model);
  const report = useAppStore(selectPlannedReport);
  const weights = useAppStore(selectWeights);
  const plan = useAppStore(selectPlan);
  if (model === undefined || report === undefined) return null;
  const activations = activationStatWords(report, plan);
  const weightWords = weightsWords(weights, plan);
  const opsets = report.opsets.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ');
  const tflite = model.inferred.format === 'tflite';
  const { decodeMs, inferMs } = model.timings;
  return (
    <Panel title="Model" testId="model-summary">
      <div className="stats">
        <Stat label="Nodes" value={formatCount(report.nodes)} testId="stat-nodes" />
        <Stat label="Activations" value={formatCount(report.activations)} testId="stat-activations" />
        <Stat label={activations.label} labelTitle={activations.labelTitle} value={activations.value} title={activations.title} testId="stat-activation-bytes" />
      </div>
      {activations.note !== undefined && (
        <p className="muted stat-note" data-testid="stat-activation-note">
          {activations.note}
        </p>
      )}
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
          {weightWords.value}
          {weightWords.note !== undefined && <span className="muted">{weightWords.note}</span>}
        </Fact>
        <Fact term="Constants" testId="fact-constants">
          {formatCount(report.constants)} <span className="muted">computed from constants{weightWords.constantsNote}</span>
        </Fact>
        <Fact term="Unknown shapes" testId="fact-unknown">
          {/* as the heap's banner counts them: the If/Loop/Scan bodies' tensors too */}
          {unknownShapesText(model.inferred, planAssumptions(plan, model.inferred).unknown.map((u) => u.tensor))}
        </Fact>
        <Fact term="Time">
          {decodeMs === undefined ? '' : `decode ${formatMs(decodeMs)} · `}infer {formatMs(inferMs)}
        </Fact>
      </dl>
    </Panel>
  );
}

function Stat({ label, labelTitle, value, title, testId }: { label: string; labelTitle?: string; value: string; title?: string; testId: string }) {
  return (
    <div className="stat">
      <div className="stat-value" data-testid={testId} title={title}>
        {value}
      </div>
      <div className="stat-label" title={labelTitle}>
        {label}
      </div>
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
