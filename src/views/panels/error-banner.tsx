// The error banner: which file failed and why, in one row, while the
// previous model stays on screen. The message wraps to up to three lines, so
// its cause shows; a longer one is cut at the end of the third, whole in the
// banner's title and under "Details". Dismissed by its
// button or by Escape (unless a field or a dialog has the key); announced as an alert.

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isCut, MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { useActions, useAppStore } from '../../store/context';
import { LongName } from '../long-name';
import './status.css';
import { isTypingTarget } from '../typing-target';

/** Shows the last error of an open or re-inference; renders nothing without one. */
export function ErrorBanner() {
  const error = useAppStore((s) => s.error);
  const shown = useAppStore((s) => s.model?.name);
  const { dismissError } = useActions();
  // Opened for one error: the next error starts on its one line again.
  const [expandedFor, setExpandedFor] = useState<object | undefined>(undefined);
  const expanded = error !== undefined && expandedFor === error;
  const [clipped, setClipped] = useState(false);
  const message = useRef<HTMLSpanElement>(null);
  const text = error === undefined ? '' : sentence(error.message, error.file);
  // Whether the three lines cut the message, so "Details" is offered only when there is more to read.
  useLayoutEffect(() => {
    const element = message.current;
    if (element === null || expanded) return;
    const measure = (): void => setClipped(element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, expanded]);
  useEscapeDismisses(error !== undefined, dismissError);
  if (error === undefined) return null;
  const what = error.task === 'open' ? 'Could not open' : 'Could not re-infer';
  const note = shown !== undefined && error.task === 'open' ? `Still showing ${shown}.` : undefined;
  const title = titleText(`${what} ${error.file} [${error.code}]: ${text}${note === undefined ? '' : ` ${note}`}`);
  return (
    <div className="banner banner-error banner-line" role="alert" data-testid="error-banner" data-code={error.code} data-expanded={expanded} title={title}>
      <svg className="banner-icon" viewBox="0 0 20 20" aria-hidden="true">
        <path d="M10 2.5 18.5 17h-17L10 2.5Z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        <path d="M10 8v4.2M10 14.4v.1" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <p className="banner-text">
        <span className="banner-title">
          {what} <strong data-testid="error-file" title={isCut(error.file) ? titleText(error.file) : undefined}>{shortName(error.file)}</strong>
          <code className="banner-code">{error.code}</code>
        </span>
        <span ref={message} className="banner-message" data-testid="error-message">
          {expanded ? <LongName text={text} max={MESSAGE_CHARS} /> : shortName(text, MESSAGE_CHARS)}
        </span>
        {note !== undefined && <span className="banner-note">{note}</span>}
      </p>
      {(clipped || expanded) && (
        <button type="button" className="button button-small button-quiet" aria-expanded={expanded} onClick={() => setExpandedFor(expanded ? undefined : error)}>
          {expanded ? 'Less' : 'Details'}
        </button>
      )}
      <button type="button" className="button button-small button-quiet" onClick={(event) => dismissAndRefocus(dismissError, event.currentTarget)} aria-label="Dismiss error" aria-keyshortcuts="Escape" title="Dismiss (Escape)">
        Dismiss
      </button>
    </div>
  );
}

/**
 * Dismisses from the banner's button, which goes with the banner: focus moves
 * to Open file, the next step after a file that failed, instead of falling
 * back to the page's body; in a dialog (Compare shows the banner while it
 * covers the page), to the dialog, as Open file is behind it.
 */
function dismissAndRefocus(dismiss: () => void, button: Element): void {
  const dialog = button.closest('[role="dialog"]');
  dismiss();
  (dialog instanceof HTMLElement ? dialog : document.getElementById('open-file'))?.focus();
}

/**
 * Escape dismisses the banner while it is `shown`, as its button does, unless
 * something used the key already (a menu, a fixer) or it was typed in a field
 * or a dialog, which have Escape of their own. The selection an Escape clears
 * goes with it: the page listens on the document, before this.
 */
function useEscapeDismisses(shown: boolean, dismiss: () => void): void {
  useEffect(() => {
    if (!shown) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
      if (isTypingTarget(event.target)) return;
      if (event.target instanceof Element && event.target.closest('dialog, [role="dialog"]') !== null) return;
      if (document.querySelector('[aria-modal="true"]') !== null) return;
      dismiss();
    };
    // The window hears the key after the page's own handlers, so their preventDefault is seen.
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shown, dismiss]);
}

/** Starts the message with a capital (unless it starts with a file name or URL) and ends it with a full stop. */
function sentence(message: string, file: string): string {
  const text = message.trim();
  if (text === '') return text;
  const verbatim = text.startsWith(file) || /^[a-z][\w+.-]*:\/\//i.test(text);
  const capital = verbatim ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
