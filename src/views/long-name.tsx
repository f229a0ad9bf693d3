// Names from a model can be megabytes long: shown cut (shared/short-name), with
// the whole text on demand in a scrolling box, so one name never renders a
// page-tall paragraph.

import { useState } from 'react';
import { isCut, SHOWN_CHARS, shortName, titleText } from '../shared/short-name';

/** Props of LongName. */
export interface LongNameProps {
  readonly text: string;
  readonly max?: number; // characters shown before the cut; SHOWN_CHARS by default
}

/** A name cut to `max` characters, with a button that shows the whole text in a scrolling box. */
export function LongName({ text, max = SHOWN_CHARS }: LongNameProps) {
  const [open, setOpen] = useState(false);
  if (!isCut(text, max)) return <>{text}</>;
  if (open) {
    return (
      <span className="long-name-full" data-testid="long-name-full" tabIndex={0}>
        {text}
      </span>
    );
  }
  return (
    <>
      <span title={titleText(text)}>{shortName(text, max)}</span>{' '}
      <button type="button" className="link-button long-name-more" data-testid="long-name-more" onClick={() => setOpen(true)}>
        show all {text.length.toLocaleString('en-US')} characters
      </button>
    </>
  );
}
