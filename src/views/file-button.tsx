// A button that opens the file picker: a visually hidden file input followed by
// the label that shows as the button, so that the input, reached with Tab,
// draws its focus ring on the label (styles.css: .file-input:focus-visible + .button).
// Enter opens the picker as Space does, since it looks like a button. Every
// file-open control of the page is one.

import { useId, type ChangeEvent, type KeyboardEvent, type ReactNode } from 'react';

/** Props of FileButton. */
export interface FileButtonProps {
  readonly accept: string; // the input's accept list
  readonly onFile: (file: File) => void; // the picked file
  readonly className: string; // the label's button classes, e.g. "button button-small"
  readonly children: ReactNode; // what the button says
  readonly id?: string; // the input's id; a generated one otherwise
  readonly testId?: string; // the input's data-testid
}

/** The file input and its label, side by side. */
export function FileButton({ accept, onFile, className, children, id, testId }: FileButtonProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const onChange = (event: ChangeEvent<HTMLInputElement>): void => {
    const file = event.target.files?.[0];
    // Cleared so that picking the same file again opens it again.
    event.target.value = '';
    if (file) onFile(file);
  };
  // A file input opens on Space only; a button opens on Enter too, and a keyboard user takes this for one.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key !== 'Enter' || event.repeat) return;
    event.preventDefault();
    event.currentTarget.click();
  };
  return (
    <>
      <input id={inputId} type="file" accept={accept} className="visually-hidden file-input" onChange={onChange} onKeyDown={onKeyDown} data-testid={testId} />
      <label htmlFor={inputId} className={className}>
        {children}
      </label>
    </>
  );
}
