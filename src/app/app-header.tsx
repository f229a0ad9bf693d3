// The header: product name, the file on screen, the pane toggles, and the open
// actions (file picker with an accessible label, and the bundled sample). The picker
// opens what a drop opens: ONNX and TensorFlow Lite models and saved plan files.

import { formatBytes } from '../shared/format';
import { shortName, titleText } from '../shared/short-name';
import { useActions, useAppStore } from '../store/context';
import { useOpenDropped } from '../views/compare/use-compare';
import { FileButton } from '../views/file-button';
import { PaneToggles, type PaneTogglesProps } from './pane-toggles';

/** Props of AppHeader: the panes shown and their toggle. */
export interface AppHeaderProps {
  readonly panes: PaneTogglesProps['panes'];
  readonly onTogglePane: PaneTogglesProps['onToggle'];
}

/** The top bar of the page. */
export function AppHeader({ panes, onTogglePane }: AppHeaderProps) {
  const { openSample } = useActions();
  const open = useOpenDropped();
  const model = useAppStore((s) => s.model);
  const busy = useAppStore((s) => s.task !== undefined);
  return (
    <header className="header">
      <div className="brand">
        <Logo />
        <span className="brand-name">heapscope</span>
        <span className="brand-tag">memory planner</span>
      </div>
      {model && (
        <div className="current-file" data-testid="current-file" title={titleText(model.url ?? model.name)}>
          <span className="current-name">{shortName(model.name)}</span>
          <span className="current-size">{formatBytes(model.size)}</span>
        </div>
      )}
      {model && <PaneToggles panes={panes} onToggle={onTogglePane} />}
      <div className="header-actions">
        <button type="button" className="button" onClick={() => void openSample()} disabled={busy && model === undefined}>
          Open sample
        </button>
        <FileButton id="open-file" accept=".onnx,.ort,.tflite,.json,application/octet-stream,application/json" onFile={open} className="button button-primary">
          <svg viewBox="0 0 16 16" aria-hidden="true" className="button-icon">
            <path d="M2.5 4.5v8h11v-6.5h-6L6 4.5H2.5Z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
          </svg>
          Open file
        </FileButton>
      </div>
    </header>
  );
}

/** The product mark: a heap of buffers stacked in address order. */
function Logo() {
  return (
    <svg className="logo" viewBox="0 0 24 24" aria-hidden="true">
      <rect x="3" y="4" width="11" height="4" rx="1" fill="var(--kind-input)" />
      <rect x="7" y="10" width="14" height="4" rx="1" fill="var(--accent)" />
      <rect x="3" y="16" width="9" height="4" rx="1" fill="var(--kind-output)" />
      <rect x="14" y="16" width="7" height="4" rx="1" fill="var(--kind-activation)" opacity="0.55" />
    </svg>
  );
}
