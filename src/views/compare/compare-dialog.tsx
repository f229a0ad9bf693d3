// The comparison dialog over the page: A and B side by side in numbers, their
// heap diagrams on one address scale, and the diff (causes, changed buffers).
// With a saved plan alone, its heap and numbers, and a way to compare it with
// the plan on screen. Escape or Close ends it; while open, it keeps the
// keyboard's focus, and gives it back to what opened it when it closes.

import { useCallback, useRef, useState, type ReactNode } from 'react';
import { writePlanFile } from '../../planner/assembly/plan-file';
import { peakText, regionsPeakText } from '../plan-words';
import { planFits } from '../../store/fit-words';
import { wholeFigures } from '../../shared/format';
import { SHOWN_CHARS, shortName, titleText } from '../../shared/short-name';
import { useActions, useAppStore, useAppStoreApi } from '../../store/context';
import { sidePlanFile } from '../../store/side-plan-file';
import { toErrorData } from '../../shared/errors';
import { CompareHeaps } from './compare-heaps';
import { deltaTone, signedBytes } from './compare-scale';
import { arenaSideText, comparedFigure, overLimitSideText, type ComparedFigure } from './compared-figure';
import { planRefused } from '../../planner/assembly/assumptions';
import { arenaFigures, type RuntimeArenaFigures } from '../../planner/diff/runtime-delta';
import { deltaPrefix, percentChange, regionChangeLines } from '../../planner/diff/delta-words';
import type { PlanDiff } from '../../planner/diff/diff-plans';
import type { ComparedPlan } from '../../store/compare-store';
import { DiffView } from './diff-view';
import { sidePlanFileName } from '../export/export-names';
import { saveText } from '../export/save-file';
import { keptEnd } from './label-cut';
import { SavedPlanFacts } from './saved-plan-facts';
import { useCompare, useCompareActions } from './use-compare';
import { useModalFocus } from '../use-modal-focus';
import { PeakSumMark } from '../regions-peak-note';
import './compare.css';

/** The dialog; nothing while there is no comparison or saved plan. `notice` (the page's error banner, link notice and note about files dropped) shows under its header, not behind it. */
export function CompareDialog({ notice }: { readonly notice?: ReactNode }) {
  const a = useCompare((s) => s.a);
  const b = useCompare((s) => s.b);
  const diff = useCompare((s) => s.diff);
  const focus = useCompare((s) => s.focus);
  const { close, setFocus, compareSavedWithShown } = useCompareActions();
  const { select } = useActions();
  const canCompareSaved = useAppStore((s) => s.model?.plan.status === 'planned');
  const dialog = useRef<HTMLDivElement>(null);
  const [saveNote, setSaveNote] = useState<{ readonly text: string; readonly error: boolean } | undefined>(undefined);

  useModalFocus(dialog, a !== undefined, close);

  const onPickBuffer = useCallback(
    (side: 'a' | 'b', name: string) => {
      const change = diff?.buffers.find((c) => (side === 'a' ? c.nameA : c.nameB) === name);
      setFocus({
        label: `${name}: ${change?.status ?? 'picked'}`,
        buffersA: side === 'a' ? [name] : change?.nameA !== undefined ? [change.nameA] : [],
        buffersB: side === 'b' ? [name] : change?.nameB !== undefined ? [change.nameB] : [],
        nodes: change?.node !== undefined ? [change.node] : [],
      });
    },
    [diff, setFocus],
  );
  const onSelectNode = useCallback((node: string) => select({ kind: 'node', node }), [select]);

  if (a === undefined) return null;
  const figure = diff === undefined || b === undefined ? undefined : comparedFigure(diff, { a: a.file.settings, b: b.file.settings });
  // each side's arena to declare as the diff computed it (diff's runtime, runtimeA or runtimeB), the plan's own with no diff
  const arenaA = diff === undefined ? arenaFigures(a.file.plan) : (diff.runtime?.a ?? diff.runtimeA);
  const arenaB = b === undefined ? undefined : diff === undefined ? arenaFigures(b.file.plan) : (diff.runtime?.b ?? diff.runtimeB);
  const title = b === undefined ? 'Saved plan' : 'Compare plans';
  return (
    <div className="compare-backdrop">
      <div ref={dialog} className="compare-dialog" role="dialog" aria-modal="true" aria-label={title} tabIndex={-1} data-testid="compare-dialog">
        <header className="compare-header">
          <h2 className="compare-title">{title}</h2>
          <SideSummary side="a" plan={a} arena={arenaA} other={b?.label} onSaved={setSaveNote} />
          {b === undefined && (
            <button type="button" className="button button-small" onClick={compareSavedWithShown} disabled={!canCompareSaved} data-testid="compare-saved-with-shown">
              Compare with the plan on screen
            </button>
          )}
          {/* Close ends A's row, and B starts the next: a Close wrapped to a row of its own took that row from the heaps */}
          <button type="button" className="button button-small compare-close" onClick={close}>
            Close
          </button>
          {b && <span className="compare-row-break" aria-hidden="true" />}
          {b && <SideSummary side="b" plan={b} arena={arenaB} other={a.label} onSaved={setSaveNote} />}
          {diff && figure && b && <DeltaLine figure={figure} peakDelta={diff.delta} fitsA={planFits(a.file.plan)} fitsB={planFits(b.file.plan)} />}
          {diff && b && <RegionLines diff={diff} />}
          {saveNote && (
            <p className={`compare-save-note ${saveNote.error ? 'tool-error' : 'muted tool-note'}`} role="status" data-testid="compare-save-note">
              {saveNote.text}
            </p>
          )}
        </header>
        {notice}
        <div className="compare-body">
          <CompareHeaps a={a.file} b={b?.file} focusA={focus?.buffersA} focusB={focus?.buffersB} onPickBuffer={onPickBuffer} />
          {diff && <DiffView diff={diff} focus={focus} onFocus={setFocus} onSelectNode={onSelectNode} />}
          {b === undefined && <SavedPlanFacts file={a.file} />}
        </div>
      </div>
    </div>
  );
}

/**
 * "B − A, arena to declare: at most +7.30 KiB (+10.0 %)" and why; on TensorFlow
 * Lite Micro with a file as it is needing another arena than with the plan
 * written, the files as they are first, as `heapscope diff` leads with them.
 */
function DeltaLine({ figure, peakDelta, fitsA, fitsB }: { readonly figure: ComparedFigure; readonly peakDelta: number; readonly fitsA: boolean; readonly fitsB: boolean }) {
  const first = figure.asIs ?? figure;
  return (
    <p className="compare-delta" data-testid="compare-delta" data-delta={figure.delta} data-delta-as-is={figure.asIs?.delta} data-bound={figure.bound} data-compared={figure.what} data-peak-delta={peakDelta}>
      {figure.label}: <DeltaFigure figure={figure} delta={first.delta} base={first.a} tone={deltaTone(first.delta, fitsA, fitsB)} />
      {figure.asIs !== undefined && (
        <>
          {' for the files as they are, '}
          <DeltaFigure figure={figure} delta={figure.delta} base={figure.a} tone={deltaTone(figure.delta, fitsA, fitsB)} />
          {' with the plan written'}
        </>
      )}
      {figure.detail !== undefined && (
        <span className="compare-delta-note" data-testid="compare-runtime-note" data-arena-side={figure.alone?.side} data-arena={figure.alone?.figures.arena}>
          {' '}
          · {figure.detail}
        </span>
      )}
      {figure.note !== undefined && (
        <span className="compare-delta-note" data-testid="compare-delta-note">
          {' '}
          · {figure.note}
        </span>
      )}
      {fitsA !== fitsB && (
        <span className="compare-fit-note" data-testid="compare-fit-note">
          {' '}
          · only {fitsA ? 'A' : 'B'} fits its limits
        </span>
      )}
    </p>
  );
}

/** Each region's peak in A and B and its change, as `heapscope diff` lists them under the peak; nothing for one region. */
function RegionLines({ diff }: { readonly diff: PlanDiff }) {
  const lines = regionChangeLines(diff);
  if (lines.length === 0) return null;
  return (
    <ul className="compare-regions" data-testid="compare-regions">
      {lines.map((line, k) => (
        <li key={diff.regions[k]!.name} data-region={diff.regions[k]!.name} data-delta={diff.regions[k]!.delta}>
          {line}
        </li>
      ))}
    </ul>
  );
}

/** A change of B − A, "at least −7.30 KiB (−9.1 %)", bounded as the figure is. */
function DeltaFigure({ figure, delta, base, tone }: { readonly figure: ComparedFigure; readonly delta: number; readonly base: number; readonly tone: string }) {
  return (
    <>
      <strong className={tone}>
        {deltaPrefix(figure.bound)}
        {signedBytes(delta)}
      </strong>
      {percentChange(delta, base)}
    </>
  );
}

const ARENA_TITLE = 'The TensorFlow Lite Micro tensor arena to declare: its head, and its tail and planning (the arena beyond the head, as the memory map names it), with the plan written';
const ARENA_AS_IS_TITLE = '; the file as it is, flashed unchanged, needs the arena given first';
const ARENA_LOWER_TITLE = "; ≥: a lower estimate, a kernel's scratch requests are not known and none are assumed";
const ARENA_ESTIMATE_TITLE = "; (estimate): it rests on the tail's estimated parts, which Details names";

/** What a side's Save says: that the file was saved, without suggestions and why, or why it could not be saved. */
type SaveNote = { readonly text: string; readonly error: boolean };

interface SideSummaryProps {
  readonly side: 'a' | 'b';
  readonly plan: ComparedPlan;
  readonly arena: RuntimeArenaFigures | undefined; // the side's TensorFlow Lite Micro arena to declare; undefined for a plan of no runtime
  readonly other: string | undefined; // the other side's label, whose difference from this one stays in view
  readonly onSaved: (note: SaveNote) => void;
}

/** One side's label, figures and Save. */
function SideSummary({ side, plan, arena, other, onSaved }: SideSummaryProps) {
  const keepEnd = keptEnd(plan.label, other) === 'end';
  const page = useAppStoreApi();
  const name = side.toUpperCase();
  // The plan file carries the suggestions as the Export panel's does: a side that is the plan on screen waits for them.
  const save = async (): Promise<void> => {
    try {
      const { file, withoutSuggestions } = await sidePlanFile(plan, page);
      // .a and .b name the sides of a comparison; a saved plan shown alone is neither
      saveText(writePlanFile(file), sidePlanFileName(other === undefined ? undefined : side, file), 'application/json');
      onSaved({ text: withoutSuggestions === undefined ? `${name}'s plan file saved` : `${name}'s plan file saved without suggestions: ${withoutSuggestions}`, error: false });
    } catch (error) {
      onSaved({ text: `${name}'s plan file could not be saved: ${toErrorData(error).message}`, error: true });
    }
  };
  return (
    <p className="compare-summary" data-testid={`compare-summary-${side}`} data-peak={plan.file.plan.peak}>
      <span className={`compare-side compare-side-${side}`}>{side.toUpperCase()}</span>
      <span className={keepEnd ? 'compare-label truncate-start' : 'compare-label'} title={titleText(plan.label)} data-testid={`compare-label-${side}`}>
        {keepEnd ? <bdi>{shortName(plan.label, SHOWN_CHARS, 'middle')}</bdi> : shortName(plan.label)}
      </span>
      {/* a peak of several memories is their sum: "Σ" says so in view, as each heap's title does, the title names each memory's peak */}
      <strong title={regionsPeakText(plan.file.plan, plan.file.plan.complete)} data-testid={`compare-peak-${side}`}>
        <PeakSumMark plan={plan.file.plan} complete={plan.file.plan.complete} />
        {peakText(plan.file.plan.peak, plan.file.plan.complete)}
      </strong>
      {arena !== undefined && (
        <span className="compare-side-arena" data-testid={`compare-arena-${side}`} data-arena={arena.arena}
          data-arena-as-is={arena.arenaAsIs}
          data-lower-estimate={arena.lowerEstimate}
          title={ARENA_TITLE + (arena.arenaAsIs === arena.arena ? '' : ARENA_AS_IS_TITLE) + (arena.lowerEstimate ? ARENA_LOWER_TITLE : arena.tailEstimated ? ARENA_ESTIMATE_TITLE : '')}>
          {wholeFigures(arenaSideText(arena))}
        </span>
      )}
      <OverLimit side={side} plan={plan} />
      <button type="button" className="chip" onClick={() => void save()} title={`Save ${name} as a plan file (a side of heapscope diff)`} data-testid={`compare-save-${side}`}>
        Save
      </button>
    </p>
  );
}

/** "sram 4.19 MiB over" for each region of the side's plan above its limit, or TFLM's refusal (overLimitSideText); nothing when it fits. */
function OverLimit({ side, plan }: { readonly side: 'a' | 'b'; readonly plan: ComparedPlan }) {
  const text = overLimitSideText(plan.file.plan);
  if (text === undefined) return null;
  return (
    <span className="compare-side-over" data-testid={`compare-over-${side}`} title={planRefused(plan.file.plan) ? `${text}, within its size limit or any other` : `${text} its size limit`}>
      {text}
    </span>
  );
}
