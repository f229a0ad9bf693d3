// The parameters of the link the page opened with that it left out (a value
// that does not parse, a setting the target refuses, or a dim or selection the
// model on screen does not have, known once it is read), named on the page
// as in the console, so a person who followed a link sees that part of it
// did not apply. Dismissible; a status, not an alert: the rest of the link
// did apply.

import { useState } from 'react';
import { useAppStore } from '../store/context';
import { LongName } from '../views/long-name';
import { MESSAGE_CHARS } from '../shared/short-name';
import '../views/panels/status.css';

/** How many left-out parameters are listed before "and N more". */
const LISTED = 5;

/** The notice; nothing when no parameter was left out, or once dismissed. */
export function LinkNotice() {
  const leftOut = useAppStore((s) => s.linkLeftOut);
  const [shown, setShown] = useState(true);
  if (!shown || leftOut.length === 0) return null;
  const more = leftOut.length - LISTED;
  return (
    <div className="banner banner-notice" role="status" data-testid="link-notice">
      <div className="banner-text">
        <p className="banner-title">{leftOut.length === 1 ? 'A parameter of the link was left out' : `${leftOut.length} parameters of the link were left out`}</p>
        <ul className="banner-list">
          {leftOut.slice(0, LISTED).map((entry, k) => (
            <li key={k} className="banner-message" data-testid="link-notice-entry">
              <LongName text={entry} max={MESSAGE_CHARS} />
            </li>
          ))}
          {more > 0 && <li className="banner-note">and {more} more (see the console)</li>}
        </ul>
      </div>
      <button type="button" className="button button-small button-quiet" onClick={() => setShown(false)} aria-label="Dismiss the note about the link">
        Dismiss
      </button>
    </div>
  );
}
