// The parameters of the link the page opened with that it left out (a value
// that does not parse, a setting the target refuses, or a dim or selection the
// model on screen does not have, known once it is read), named on the page
// as in the console, so a person who followed a link sees that part of it
// did not apply; first, when the link was made for a local file other than
// the one opened, a line that says so (no parameter left out: the headline
// does not count it). Dismissible; a status, not an alert: the rest of the
// link did apply. A link that opens a comparison shows the notice inside the
// Compare dialog, which would otherwise cover it and keep the keyboard from it.

import { useAppStore } from '../store/context';
import { LongName } from '../views/long-name';
import { MESSAGE_CHARS } from '../shared/short-name';
import { linkNoticeTitle } from './link-notice-words';
import '../views/panels/status.css';

/** How many left-out parameters are listed before "and N more". */
const LISTED = 5;

/** The notice; nothing when no parameter was left out and the link was made for the file opened. `onDismiss` hides it. */
export function LinkNotice({ onDismiss }: { readonly onDismiss: () => void }) {
  const leftOut = useAppStore((s) => s.linkLeftOut);
  const otherFile = useAppStore((s) => s.linkOtherFile);
  const entries = otherFile === undefined ? leftOut : [otherFile, ...leftOut];
  if (entries.length === 0) return null;
  const more = entries.length - LISTED;
  return (
    <div className="banner banner-notice" role="status" data-testid="link-notice">
      <div className="banner-text">
        <p className="banner-title">{linkNoticeTitle(leftOut.length, otherFile !== undefined)}</p>
        <ul className="banner-list">
          {entries.slice(0, LISTED).map((entry, k) => (
            <li key={k} className="banner-message" data-testid="link-notice-entry">
              <LongName text={entry} max={MESSAGE_CHARS} />
            </li>
          ))}
          {more > 0 && <li className="banner-note">and {more} more (see the console)</li>}
        </ul>
      </div>
      <button type="button" className="button button-small button-quiet" onClick={onDismiss} aria-label="Dismiss the note about the link">
        Dismiss
      </button>
    </div>
  );
}
