// Keeps keyboard focus off the page's body: when the focused control is removed
// or hidden by what it did (Clear, a link that changes the selection, a
// strategy that re-plans), focus moves to the nearest place left standing: a
// control of the same name where it was, else the heading that names the
// section around it (Details, Strategies for this model), else that section.
// A control only disabled while it works gets focus back when enabled again.

import { useEffect } from 'react';

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** True when `e` can no longer hold focus where it is. */
function gone(e: Element): boolean {
  return !e.isConnected || e.matches(':disabled') || e.closest('[hidden], [inert]') !== null;
}

function nameOf(e: Element): string {
  return `${e.tagName}|${e.getAttribute('aria-label') ?? e.textContent?.trim() ?? ''}`;
}

function usable(e: Element): e is HTMLElement | SVGElement {
  return (e instanceof HTMLElement || e instanceof SVGElement) && !gone(e) && e.getClientRects().length > 0;
}

/** Where focus goes when `lost`, last seen inside `ancestors` (nearest first), cannot keep it. */
function rescueTarget(lost: Element, ancestors: readonly Element[]): HTMLElement | SVGElement | undefined {
  const standing = ancestors.filter((a) => a.isConnected && a !== document.body && a !== document.documentElement);
  const name = nameOf(lost);
  const near = standing[0];
  if (near !== undefined) {
    const same = [...near.querySelectorAll(FOCUSABLE)].find((e) => e !== lost && nameOf(e) === name && usable(e));
    if (same !== undefined) return same as HTMLElement | SVGElement;
  }
  for (const a of standing) {
    const label = a.getAttribute('aria-labelledby');
    const heading = label === null ? null : document.getElementById(label.split(' ')[0]!);
    if (heading !== null && usable(heading)) {
      if (!heading.matches(FOCUSABLE)) heading.setAttribute('tabindex', '-1');
      return heading;
    }
    if (a.matches(FOCUSABLE) && usable(a)) return a as HTMLElement | SVGElement;
  }
  return undefined;
}

/** Installs the rescue for the page's lifetime. */
export function useFocusRescue(): void {
  useEffect(() => {
    let last: Element | undefined;
    let ancestors: Element[] = [];
    const onFocusIn = (event: FocusEvent): void => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      last = target;
      ancestors = [];
      for (let a = target.parentElement; a !== null; a = a.parentElement) ancestors.push(a);
    };
    const check = (): void => {
      if (last === undefined || (document.activeElement !== null && document.activeElement !== document.body)) return;
      // A control disabled while it works (Compare, a strategy re-planning) gets focus back once it is enabled again;
      // one removed or hidden meanwhile hands focus on below.
      if (last.isConnected && last.closest('[hidden], [inert]') === null) {
        if (!last.matches(':disabled') && last instanceof HTMLElement) last.focus({ preventScroll: true });
        return;
      }
      const lost = last;
      last = undefined;
      rescueTarget(lost, ancestors)?.focus({ preventScroll: false });
    };
    // Focus left for nowhere with its control still standing (a click on empty space): the user's choice, not a loss.
    const onFocusOut = (event: FocusEvent): void => {
      const target = event.target;
      if (event.relatedTarget !== null || !(target instanceof Element)) return;
      queueMicrotask(() => {
        if (last === target && !gone(target)) last = undefined;
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'inert'] });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusout', onFocusOut);
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
    };
  }, []);
}
