// What the page shows before any model is open: how to open one.

import { useActions, useAppStore } from '../store/context';

/** The empty state: drop target hint and the open actions. */
export function Welcome() {
  const { openSample } = useActions();
  const task = useAppStore((s) => s.task);
  const expected = useAppStore((s) => s.expectedFile);
  return (
    <main className="welcome" data-testid="welcome">
      <div className="welcome-card">
        <h1 className="welcome-title">{task ? `Opening ${task.name}…` : 'See where your model’s memory goes'}</h1>
        {expected !== undefined && !task && (
          <p className="welcome-text welcome-reopen" role="status" data-testid="expected-file">
            This link was made for the local file <strong>{expected.name}</strong>, which never leaves its owner’s machine: open it again
            with <strong>Open file</strong> or drop it here, and the link’s settings apply to it.
          </p>
        )}
        <p className="welcome-text">
          Drop an ONNX or TensorFlow Lite model (or a plan saved from heapscope) anywhere on this page, or choose one with <strong>Open file</strong>. heapscope decodes it in a background
          thread, infers the shape and size of every tensor, and lists them here. The file stays on this machine.
        </p>
        {!task && (
          <div className="welcome-actions">
            <button type="button" className="button button-primary" onClick={() => document.getElementById('open-file')?.click()}>
              Choose a file…
            </button>
            <button type="button" className="button" onClick={() => void openSample()}>
              Open the sample model
            </button>
          </div>
        )}
      </div>
    </main>
  );
}
