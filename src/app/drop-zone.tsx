// The whole page is a drop zone: dragging a file over it shows an overlay, and
// dropping opens the first file. Listens on window so a drop anywhere counts.

import { useEffect, useState } from 'react';
import { useOpenDropped } from '../views/compare/use-compare';

/** True when a drag carries files (not text or links). */
function carriesFiles(event: DragEvent): boolean {
  const types = event.dataTransfer?.types;
  return types !== undefined && Array.from(types).includes('Files');
}

/** Tracks drags over the window and opens a dropped file; returns whether a file is over the page. */
export function useFileDrop(onFile: (file: File) => void): boolean {
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
      const file = event.dataTransfer?.files?.[0];
      if (file) onFile(file);
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
  }, [onFile]);
  return dragging;
}

/** The overlay shown while a file is dragged over the page. */
export function DropZone() {
  // A saved plan file opens in the plan viewer; anything else opens as a model.
  const dragging = useFileDrop(useOpenDropped());
  return (
    <div className="drop-overlay" data-active={dragging} data-testid="drop-overlay" aria-hidden={!dragging}>
      <div className="drop-card">
        <svg viewBox="0 0 48 48" aria-hidden="true" className="drop-icon">
          <path d="M24 8v22M15 21l9 9 9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
          <path d="M8 32v6a2 2 0 0 0 2 2h28a2 2 0 0 0 2-2v-6" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
        <p className="drop-title">Drop an ONNX or TensorFlow Lite model to open it</p>
        <p className="drop-note">It is read in this tab and never uploaded.</p>
      </div>
    </div>
  );
}
