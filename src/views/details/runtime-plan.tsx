// The explanation's TensorFlow Lite Micro block, for a .tflite model planned
// with a target that reproduces TFLM (tflm): each figure of the runtime plan
// (runtime-plan-words.ts) with its sentence, the tail's parts with their rules
// (estimates marked), and what the figures assume.

import { useId } from 'react';
import type { RuntimePlan } from '../../planner/tflm/runtime-plan';
import { formatBytes, formatCount } from '../../shared/format';
import { MESSAGE_CHARS } from '../../shared/short-name';
import { LongName } from '../long-name';
import { filePlanVerdict, runtimeLines, type RuntimeLine } from './runtime-plan-words';

/** Props of RuntimePlanBlock. */
export interface RuntimePlanBlockProps {
  readonly runtime: RuntimePlan;
  readonly peak: number; // the peak of the plan on screen
}

/** The runtime plan: heads, tail and arena, each with what it is. */
export function RuntimePlanBlock({ runtime, peak }: RuntimePlanBlockProps) {
  const headingId = useId();
  const lines = runtimeLines(runtime, peak);
  return (
    <section
      className="explain-block runtime-plan"
      aria-labelledby={headingId}
      data-testid="runtime-plan"
      data-head={runtime.head}
      data-greedy-head={runtime.greedyHead}
      data-planned-head={runtime.planned.head}
      data-saving={runtime.planned.saving}
      data-tail={runtime.tail}
      data-arena={runtime.arena}
      data-file-plan={filePlanVerdict(runtime)}
    >
      <h4 className="explain-heading" id={headingId}>
        TensorFlow Lite Micro <span className="runtime-build">32-bit build</span>
      </h4>
      <dl className="runtime-lines">
        {lines.map((line) => (
          <RuntimeFigure key={line.key} line={line} runtime={runtime} />
        ))}
      </dl>
      {runtime.notes.length + (runtime.assumes ?? []).length > 0 && (
        <ul className="runtime-notes" aria-label="What the runtime plan assumes">
          {runtime.notes.map((note) => (
            <li key={note} data-testid="runtime-note">
              Assumes: <LongName text={note} max={MESSAGE_CHARS} />
            </li>
          ))}
          {(runtime.assumes ?? []).map((text) => (
            <li key={text} data-testid="runtime-assumes">
              Assumes: <LongName text={text} max={MESSAGE_CHARS} />
            </li>
          ))}
        </ul>
      )}
      <p className="muted runtime-footnote">
        The head is the part of the arena TFLite Micro plans (tensors and the kernels’ scratch); the tail what it keeps for the whole run, sized for a 32-bit
        microcontroller build.
      </p>
    </section>
  );
}

/** One figure: label and bytes on a line, its sentence below; the tail lists its parts. */
function RuntimeFigure({ line, runtime }: { readonly line: RuntimeLine; readonly runtime: RuntimePlan }) {
  return (
    <div className={`runtime-line${line.tone === undefined ? '' : ` runtime-${line.tone}`}`} data-testid={`runtime-${line.key}`} data-bytes={line.bytes}>
      <dt>{line.label}</dt>
      <dd className="runtime-bytes" title={`${formatCount(line.bytes)} bytes`}>
        {line.shown ?? `${line.atLeast === true ? '≥ ' : ''}${formatBytes(line.bytes)}`}
      </dd>
      <dd className="runtime-text">
        <LongName text={line.text} max={MESSAGE_CHARS} />
        {line.key === 'tail' && <TailParts runtime={runtime} />}
      </dd>
    </div>
  );
}

/** The tail's parts, folded: bytes, whether estimated, and the rule each is sized by. */
function TailParts({ runtime }: { readonly runtime: RuntimePlan }) {
  return (
    <details className="runtime-parts">
      <summary>{runtime.tailParts.length} parts</summary>
      <ul className="live-table" aria-label="Parts of the tail">
        {runtime.tailParts.map((part) => (
          <li key={part.what} data-testid="tail-part" data-estimated={part.estimated} data-bytes={part.bytes}>
            <span>
              {part.what}
              {part.estimated && <span className="tag tag-muted runtime-estimate">estimate</span>}
            </span>
            <span className="live-bytes">{formatCount(part.bytes)} B</span>
            <span className="live-origin muted">{part.rule}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
