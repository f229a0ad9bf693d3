// The error banner: which file failed and why, in one sentence, while the
// previous model stays on screen. Dismissible; announced as an alert.

import { isCut, MESSAGE_CHARS, shortName, titleText } from '../../shared/short-name';
import { useActions, useAppStore } from '../../store/context';
import { LongName } from '../long-name';
import './status.css';

/** Shows the last error of an open or re-inference; renders nothing without one. */
export function ErrorBanner() {
  const error = useAppStore((s) => s.error);
  const shown = useAppStore((s) => s.model?.name);
  const { dismissError } = useActions();
  if (error === undefined) return null;
  const what = error.task === 'open' ? 'Could not open' : 'Could not re-infer';
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner" data-code={error.code}>
      <svg className="banner-icon" viewBox="0 0 20 20" aria-hidden="true">
        <path d="M10 2.5 18.5 17h-17L10 2.5Z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        <path d="M10 8v4.2M10 14.4v.1" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <div className="banner-text">
        <p className="banner-title">
          {what} <strong data-testid="error-file" title={isCut(error.file) ? titleText(error.file) : undefined}>{shortName(error.file)}</strong>
          <code className="banner-code">{error.code}</code>
        </p>
        <p className="banner-message" data-testid="error-message">
          <LongName text={sentence(error.message, error.file)} max={MESSAGE_CHARS} />
        </p>
        {shown !== undefined && error.task === 'open' && <p className="banner-note">Still showing {shown}.</p>}
      </div>
      <button type="button" className="button button-small button-quiet" onClick={dismissError} aria-label="Dismiss error">
        Dismiss
      </button>
    </div>
  );
}

/** Starts the message with a capital (unless it starts with a file name or URL) and ends it with a full stop. */
function sentence(message: string, file: string): string {
  const text = message.trim();
  if (text === '') return text;
  const verbatim = text.startsWith(file) || /^[a-z][\w+.-]*:\/\//i.test(text);
  const capital = verbatim ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
