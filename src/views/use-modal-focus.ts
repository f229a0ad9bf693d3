// Keyboard focus of a modal dialog (aria-modal="true"): while it is open,
// focus starts on it and Tab and Shift+Tab cycle through its controls, never
// reaching the page behind; Escape closes it; once it closes, focus goes back
// to what had it before (the button that opened it), so the keyboard user
// carries on where they were.

import { useEffect, useRef, type RefObject } from 'react';

/** What Tab stops at, disabled controls aside. */
const TABBABLE = ['a[href]', 'button:not(:disabled)', 'input:not(:disabled):not([type="hidden"])', 'select:not(:disabled)', 'textarea:not(:disabled)', '[tabindex]:not([tabindex="-1"])'].join(', ');

/** The controls of `root` that Tab stops at, in document order; hidden ones (no box) left out. */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
}

/** Traps focus in `dialog` while `open`, closes it with Escape (`onClose`), and gives focus back when it closes. */
export function useModalFocus(dialog: RefObject<HTMLElement | null>, open: boolean, onClose: () => void): void {
  const opener = useRef<HTMLElement | undefined>(undefined);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  // What had focus last while closed: the button that opens the dialog may be disabled, and so lose focus, while it works.
  useEffect(() => {
    if (open) return;
    const remember = (event: FocusEvent): void => {
      if (event.target instanceof HTMLElement) opener.current = event.target;
    };
    document.addEventListener('focusin', remember);
    return () => document.removeEventListener('focusin', remember);
  }, [open]);
  useEffect(() => {
    const root = dialog.current;
    if (!open || root === null) return;
    const active = document.activeElement;
    const back = active instanceof HTMLElement && active !== document.body && !root.contains(active) ? active : opener.current;
    root.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') close.current();
      else if (event.key === 'Tab') cycle(root, event);
    };
    // Focus that got out some other way (a click on the page behind) is brought back.
    const onFocusIn = (event: FocusEvent): void => {
      if (event.target instanceof Node && !root.contains(event.target)) root.focus();
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      if (back?.isConnected) back.focus();
    };
  }, [dialog, open]);
}

/** Moves focus from the last control to the first on Tab, and from the first (or the dialog itself) to the last on Shift+Tab. */
function cycle(root: HTMLElement, event: KeyboardEvent): void {
  const stops = tabbables(root);
  const first = stops[0];
  const last = stops.at(-1);
  if (first === undefined || last === undefined) {
    event.preventDefault();
    root.focus();
    return;
  }
  const active = document.activeElement;
  const inside = active instanceof Node && root.contains(active);
  if (event.shiftKey && (!inside || active === first || active === root)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}
