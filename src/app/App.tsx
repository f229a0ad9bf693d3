// The composition root of the page: provides the store and lays out the shell
// (header, progress, error banner, drop zone) around the model's panels.

import type { AppStore } from '../store/create-store';
import { StoreContext, useAppStore } from '../store/context';
import { DiagnosticsPanel, UnknownShapesPanel } from '../views/panels/issues-panel';
import { DimsPanel } from '../views/panels/dims-panel';
import { ErrorBanner } from '../views/panels/error-banner';
import { ModelSummary } from '../views/panels/model-summary';
import { LoadProgressBar } from '../views/panels/progress-bar';
import { TensorTable } from '../views/panels/tensor-table';
import { AppHeader } from './app-header';
import { DropZone } from './drop-zone';
import { ErrorBoundary } from './error-boundary';
import { Welcome } from './welcome';
import './shell.css';

/** Props of App. */
export interface AppProps {
  readonly store: AppStore;
  readonly embed?: boolean; // chrome-less view for documentation pages (embed=1)
}

/** The page. */
export function App({ store, embed = false }: AppProps) {
  return (
    <StoreContext.Provider value={store}>
      <ErrorBoundary area="page">
        <div className="app" data-embed={embed || undefined}>
          {!embed && <AppHeader />}
          <LoadProgressBar />
          <ErrorBanner />
          <Workspace />
          <DropZone />
        </div>
      </ErrorBoundary>
    </StoreContext.Provider>
  );
}

/** The model's panels beside its tensor table; the welcome card before any model. */
function Workspace() {
  const model = useAppStore((s) => s.model);
  if (model === undefined) return <Welcome />;
  return (
    <ErrorBoundary area="model view" resetKey={model}>
      <main className="workspace">
        <aside className="sidebar" aria-label="Model details">
          <ModelSummary />
          <DimsPanel />
          <UnknownShapesPanel />
          <DiagnosticsPanel />
        </aside>
        <TensorTable />
      </main>
    </ErrorBoundary>
  );
}
