// Names from a model can be megabytes long: shown cut to a few dozen characters,
// with the whole text on demand in a scrolling box, so one name never renders a
// page-tall paragraph.

import { useState } from 'react';

/** Characters of a name shown before it is cut. */
export const SHOWN_CHARS = 120;

/** `text` cut to `max` characters with an ellipsis; tooltips and link labels use it. */
export function shortName(text: string, max = SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A name cut to SHOWN_CHARS characters, with a button that shows the whole text in a scrolling box. */
export function LongName({ text }: { readonly text: string }) {
  const [open, setOpen] = useState(false);
  if (text.length <= SHOWN_CHARS) return <>{text}</>;
  if (open) {
    return (
      <span className="long-name-full" data-testid="long-name-full" tabIndex={0}>
        {text}
      </span>
    );
  }
  return (
    <>
      <span title={shortName(text, 1000)}>{shortName(text)}</span>{' '}
      <button type="button" className="link-button long-name-more" data-testid="long-name-more" onClick={() => setOpen(true)}>
        show all {text.length.toLocaleString('en-US')} characters
      </button>
    </>
  );
}
