// The whole page is a drop zone: dragging a file over it shows an overlay, and
// dropping opens the file; of several, the first that opens (dropped-files.ts),
// and a line says which, which could not be opened and that the others were
// not. Listens on window so a drop anywhere counts.

import { useCallback, useEffect, useRef, useState } from 'react';
import { useOpenDropped } from '../views/compare/use-compare';
import { useAppStore, useAppStoreApi } from '../store/context';
import { chooseDropped, droppedNotice, openDropped } from './dropped-files';
import '../views/panels/status.css';

/** True when a drag carries files (not text or links). */
function carriesFiles(event: DragEvent): boolean {
  const types = event.dataTransfer?.types;
  return types !== undefined && Array.from(types).includes('Files');
}

/** Tracks drags over the window and hands over the files dropped; returns whether a file is over the page. */
export function useFileDrop(onFiles: (files: readonly File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    // dragenter/dragleave fire for every child element; count them to know when the drag left the page.
    let depth = 0;
    const enter = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (): void => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent): void => {
      event.preventDefault();
      depth = 0;
      setDragging(false);
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) onFiles(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [onFiles]);
  return dragging;
}

/** What a drop of several files opened: the file's name (the last tried when none opened) and the line that says so. */
export interface DroppedNote {
  readonly opened: string;
  readonly text: string;
}

/** The overlay shown while a file is dragged over the page; `onNote` gets the line about a drop of several files (undefined for one). */
export function DropZone({ onNote }: { readonly onNote: (note: DroppedNote | undefined) => void }) {
  // A saved plan file opens in the plan viewer; anything else opens as a model.
  const open = useOpenDropped();
  const store = useAppStoreApi();
  const drops = useRef(0);
  const onFiles = useCallback(
    (files: readonly File[]) => {
      const choice = chooseDropped(files);
      if (choice === undefined) return;
      // a later drop takes this one's place: its tries stop, and its line is not shown
      const drop = ++drops.current;
      onNote(undefined);
      const tryFile = async (file: File): Promise<boolean | undefined> => {
        if (drop !== drops.current) return undefined;
        await open(file);
        if (drop !== drops.current) return undefined;
        const { error } = store.getState();
        return !(error?.file === file.name && error.task === 'open');
      };
      void openDropped(choice, tryFile).then((outcome) => {
        if (outcome === undefined || drop !== drops.current) return;
        const text = droppedNotice(outcome);
        onNote(text === undefined ? undefined : { opened: outcome.opened ?? outcome.failed.at(-1)!, text });
      });
    },
    [open, onNote, store],
  );
  const dragging = useFileDrop(onFiles);
  return (
    <div className="drop-overlay" data-active={dragging} data-testid="drop-overlay" aria-hidden={!dragging}>
      <div className="drop-card">
        <svg viewBox="0 0 48 48" aria-hidden="true" className="drop-icon">
          <path d="M24 8v22M15 21l9 9 9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
          <path d="M8 32v6a2 2 0 0 0 2 2h28a2 2 0 0 0 2-2v-6" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
        <p className="drop-title">Drop an ONNX or TensorFlow Lite model, or a saved plan, to open it</p>
        <p className="drop-note">It is read in this tab and never uploaded.</p>
      </div>
    </div>
  );
}

/** The line about a drop of several files, while the file it opened is the one opening, shown or refused. */
export function DroppedNotice({ note, onDismiss }: { readonly note: DroppedNote | undefined; readonly onDismiss: () => void }) {
  const current = useAppStore((s) => note !== undefined && (s.task?.name === note.opened || s.model?.name === note.opened || s.error?.file === note.opened));
  if (note === undefined || !current) return null;
  return (
    <div className="banner banner-notice" role="status" data-testid="drop-notice">
      <p className="banner-text banner-message">{note.text}</p>
      <button type="button" className="button button-small button-quiet" onClick={onDismiss} aria-label="Dismiss the note about the files dropped">
        Dismiss
      </button>
    </div>
  );
}
