// The assumptions banner above the heap: one line per thing the plan rests on
// that the file does not fix (default dims, tensors of unknown size, guessed
// branches), each with the control that fixes it one click away, opened in place.
// Escape closes an open fixer. In a small pane (an embed) it is one line that
// opens into the whole banner, laid over the diagram so the heap keeps its size;
// the keyboard focus goes from the button that opens it to the one that closes it, and back.

import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { AssumptionLine } from '../../store/assumptions';
import { selectAssumptionLines } from '../../store/assumptions';
import { useAppStore } from '../../store/context';
import { DimsFields, InputValueField, ShapeField } from '../panels/binding-fields';
import { titleText } from '../../shared/short-name';
import './assumptions.css';

/** The banner; nothing when the plan rests on no assumption. `compact`: one line until opened. */
export function AssumptionsBanner({ compact = false }: { readonly compact?: boolean }) {
  const lines = useAppStore(selectAssumptionLines);
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [shown, setShown] = useState(false);
  // The button that opened or closed the banner leaves the page with it: focus goes to the one that takes its place
  // (Details or +N more, and Less), where it fell back to the page's body.
  const toggle = useRef<HTMLButtonElement>(null);
  const toggled = useRef(false);
  useEffect(() => {
    if (!toggled.current) return;
    toggled.current = false;
    toggle.current?.focus();
  }, [shown]);
  const show = (on: boolean): void => {
    toggled.current = true;
    setShown(on);
  };
  if (lines.length === 0) return null;
  const whole = (onLess?: () => void) => <WholeBanner lines={lines} open={open} onOpen={setOpen} onLess={onLess} lessRef={toggle} />;
  if (!compact) return whole();
  // The pane keeps the one line's room: the opened banner and its fixers lie over the diagram and scroll within a
  // bounded height, where they squeezed a 480×320 embed's heap while open.
  return <div className="assumptions-slot">{shown ? whole(() => show(false)) : <CompactLine lines={lines} onMore={() => show(true)} moreRef={toggle} />}</div>;
}

/** The banner in one line: the first assumption, cut, and a button that opens the rest. */
function CompactLine({ lines, onMore, moreRef }: { readonly lines: readonly AssumptionLine[]; readonly onMore: () => void; readonly moreRef: RefObject<HTMLButtonElement | null> }) {
  const first = lines[0]!;
  const more = lines.length - 1;
  return (
    <div className="assumptions assumptions-compact" role="note" aria-label="What the plan assumes" data-testid="assumptions-banner" data-compact="true">
      <p className="assumption-text">
        <span className="assumption-summary" title={titleText(lines.map((l) => l.text).join('\n'))}>
          {first.action === undefined ? first.text : first.lead}
        </span>
        <button ref={moreRef} type="button" className="assumption-action" aria-expanded={false} onClick={onMore} data-testid="assumptions-more">
          {more > 0 ? `+${more} more` : 'Details'}
        </button>
      </p>
    </div>
  );
}

/** Props of WholeBanner. */
interface WholeBannerProps {
  readonly lines: readonly AssumptionLine[];
  readonly open: string | undefined; // the key of the line whose fixer is open
  readonly onOpen: (key: string | undefined) => void;
  readonly onLess: (() => void) | undefined; // back to one line; given, the banner lies over the diagram
  readonly lessRef: RefObject<HTMLButtonElement | null>; // the Less button
}

/** Every line of the banner, each with its fixer one click away. */
function WholeBanner({ lines, open, onOpen, onLess, lessRef }: WholeBannerProps) {
  const compact = onLess !== undefined;
  return (
    <div className={compact ? 'assumptions assumptions-over' : 'assumptions'} role="note" aria-label="What the plan assumes" data-testid="assumptions-banner" data-compact={compact}>
      {compact && (
        <button ref={lessRef} type="button" className="assumption-action assumptions-less" aria-expanded onClick={onLess} data-testid="assumptions-less">
          Less
        </button>
      )}
      <ul className="assumption-lines">
        {lines.map((line) => (
          <AssumptionItem key={line.key} line={line} open={open === line.key} onToggle={(on) => onOpen(on ? line.key : undefined)} />
        ))}
      </ul>
    </div>
  );
}

/** One line of the banner and, when `open`, its fixer; Escape in the fixer closes it and gives focus back to the button that opened it. */
function AssumptionItem({ line, open, onToggle }: { readonly line: AssumptionLine; readonly open: boolean; readonly onToggle: (open: boolean) => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>): void => {
    if (event.key !== 'Escape' || !open) return;
    // Escape closes the fixer here; it must not also clear the selection (graph-panel.tsx).
    event.preventDefault();
    onToggle(false);
    button.current?.focus();
  };
  return (
    <li className="assumption" data-testid="assumption" data-kind={line.fix.kind} data-key={line.key} onKeyDown={onKeyDown}>
      <p className="assumption-text">
        <span>{line.action === undefined ? line.text : line.lead}</span>
        {line.detail !== undefined && <WhyButton detail={line.detail} />}
        {line.action !== undefined && (
          <button ref={button} type="button" className="assumption-action" aria-expanded={open} onClick={() => onToggle(!open)} data-testid="assumption-fix">
            {line.action}
          </button>
        )}
      </p>
      {open && <AssumptionFixer line={line} />}
    </li>
  );
}

/**
 * The "?" beside a line: why the plan assumes it, in the model layer's words.
 * The pointer gets it on hover (title); the keyboard on focus, or Enter, in a
 * note under the line, which is also the button's description for a screen
 * reader. Escape or leaving the button hides the note.
 */
function WhyButton({ detail }: { readonly detail: string }) {
  const note = useId();
  const [shown, setShown] = useState(false);
  const hideOnBlur = useHideAfterPress(shown, () => setShown(false));
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    if (event.key !== 'Escape' || !shown) return;
    // Escape hides the note only: not the fixer of the line, the selection or the error banner too.
    event.preventDefault();
    event.stopPropagation();
    setShown(false);
  };
  return (
    <>
      <button
        type="button"
        className="assumption-why"
        aria-label="Why?"
        aria-describedby={note}
        aria-expanded={shown}
        title={titleText(detail)}
        onFocus={() => setShown(true)}
        onBlur={hideOnBlur}
        onClick={() => setShown(true)}
        onKeyDown={onKeyDown}
        data-testid="assumption-why"
      >
        ?
      </button>
      <span id={note} className="assumption-why-note" hidden={!shown} data-testid="assumption-why-note">
        {titleText(detail)}
      </span>
    </>
  );
}

/**
 * The blur handler of a note shown while `shown`: hides it at once when focus
 * left by the keyboard, and only once the pointer is released when a press
 * moved focus, since the note's line closing under the pointer between press
 * and release moved the button pressed (the line's fixer) away from it and lost the click.
 */
function useHideAfterPress(shown: boolean, hide: () => void): () => void {
  const pressed = useRef(false);
  useEffect(() => {
    if (!shown) return;
    const down = (): void => {
      pressed.current = true;
    };
    const up = (): void => {
      pressed.current = false;
    };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('pointerup', up, true);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('pointerup', up, true);
    };
  }, [shown]);
  return () => {
    if (!pressed.current) return hide();
    const later = (): void => void setTimeout(hide, 0); // after the click the release makes
    window.addEventListener('pointerup', later, { once: true });
    window.addEventListener('pointercancel', later, { once: true });
  };
}

/** The control that fixes one line: the dims, a shape for an unknown tensor, or an input's value. */
function AssumptionFixer({ line }: { readonly line: AssumptionLine }) {
  const fix = line.fix;
  if (fix.kind === 'dims') return <DimsFields dims={fix.dims} autoFocus />;
  if (fix.kind === 'shape') return <UnknownShapeFixer tensors={fix.tensors} />;
  if (fix.kind === 'target' || fix.kind === 'none') return null;
  return (
    <div className="assumption-fields">
      {fix.inputs.map((input, k) => (
        <InputValueField key={input} input={input} autoFocus={k === 0} compact />
      ))}
    </div>
  );
}

/** How many unknown tensors the picker offers. */
const PICKABLE = 200;

/** A shape for one of the tensors of unknown size, the first one preselected. */
function UnknownShapeFixer({ tensors }: { readonly tensors: readonly string[] }) {
  const [tensor, setTensor] = useState(tensors[0]!);
  return (
    <div className="assumption-fields">
      {tensors.length > 1 && (
        <label className="assumption-pick">
          Tensor{' '}
          <select className="input" value={tensor} onChange={(event) => setTensor(event.target.value)} data-testid="unknown-tensor-select">
            {tensors.slice(0, PICKABLE).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      )}
      <ShapeField key={tensor} tensor={tensor} autoFocus compact />
    </div>
  );
}
