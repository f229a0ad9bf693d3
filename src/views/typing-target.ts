// Whether a key press belongs to a field the user is typing in, so a page-wide
// shortcut (/, Ctrl+F, Escape) leaves it alone. No dependencies.

/** The elements that take typed text. */
const TYPING = 'input, textarea, select, [contenteditable="true"]';

/** True when `target` (an event's) is, or is inside, an element that takes typed text. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(TYPING) !== null;
}
