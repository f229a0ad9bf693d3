// The composition root of the page: provides the store and lays out the shell
// (skip links, header, progress, error banner, drop zone) around the model's views: side bar
// (model, plan settings, dims, issues), graph | heap | growth | details, tensor table.

import type { AppStore } from '../store/create-store';
import { StoreContext, useAppStore } from '../store/context';
import { DiagnosticsPanel, UnknownShapesPanel } from '../views/panels/issues-panel';
import { DimsPanel } from '../views/panels/dims-panel';
import { BindingsPanel } from '../views/panels/bindings-panel';
import { ErrorBanner } from '../views/panels/error-banner';
import { ModelSummary } from '../views/panels/model-summary';
import { LoadProgressBar } from '../views/panels/progress-bar';
import { SettingsPanel } from '../views/panels/settings-panel';
import { MemoryMapPanel } from '../views/panels/memory-map-panel';
import { TensorTable } from '../views/panels/tensor-table';
import { DetailsPanel } from '../views/details/details-panel';
import { GraphPanel } from '../views/graph/graph-panel';
import { HeapPanel } from '../views/heap/heap-panel';
import { GrowthPanel } from '../views/growth/growth-panel';
import { SplitPane } from '../views/split-pane';
import { AppHeader } from './app-header';
import { useState, type ReactNode } from 'react';
import { DropZone, DroppedNotice, type DroppedNote } from './drop-zone';
import { ErrorBoundary } from '../views/error-boundary';
import { Welcome } from './welcome';
import { LinkNotice } from './link-notice';
import { EmbedWorkspace } from '../embed/embed-workspace';
import type { EmbedPane } from '../embed/embed-panes';
import { fullViewHref } from './url-params';
import { ComparePanel } from '../views/compare/compare-panel';
import { CompareDialog } from '../views/compare/compare-dialog';
import { useCompare } from '../views/compare/use-compare';
import { ExportPanel } from '../views/export/export-panel';
import { usePanes, type PaneVisibility } from './pane-toggles';
import { SkipLinks } from './skip-links';
import { useFocusRescue } from './focus-rescue';
import '../views/shell.css';

/** Props of App. */
export interface AppProps {
  readonly store: AppStore;
  readonly embed?: boolean; // chrome-less view for documentation pages (embed=1)
  readonly panes?: readonly EmbedPane[]; // what the embed shows (panes=), or which panes the full page starts with; the default when undefined
}

/** The page. */
export function App({ store, embed = false, panes: linkedPanes }: AppProps) {
  const [panes, togglePane] = usePanes(linkedPanes);
  useFocusRescue();
  const [dropped, setDropped] = useState<DroppedNote | undefined>(undefined);
  const [noticeShown, setNoticeShown] = useState(true);
  const link = embed || !noticeShown ? undefined : <LinkNotice onDismiss={() => setNoticeShown(false)} />;
  // The notices of the page: under the header, or in the Compare dialog while it covers the page (behind it, they could be neither read nor reached).
  const notices = (
    <>
      <ErrorBanner />
      {link}
      {!embed && <DroppedNotice note={dropped} onDismiss={() => setDropped(undefined)} />}
    </>
  );
  return (
    <StoreContext.Provider value={store}>
      <ErrorBoundary area="page">
        <div className="app" data-embed={embed || undefined}>
          {!embed && <SkipLinks panes={panes} />}
          {!embed && <AppHeader panes={panes} onTogglePane={togglePane} />}
          <LoadProgressBar />
          {embed ? notices : <WhileNotComparing>{notices}</WhileNotComparing>}
          {embed ? <EmbedWorkspace fullViewUrl={fullViewHref(window.location.href)} panes={linkedPanes} /> : <Workspace panes={panes} />}
          {!embed && <DropZone onNote={setDropped} />}
          {!embed && <CompareDialog notice={notices} />}
        </div>
      </ErrorBoundary>
    </StoreContext.Provider>
  );
}

/** `children` while the Compare dialog is closed: the page's notices, which show in the dialog while it covers the page. */
function WhileNotComparing({ children }: { readonly children: ReactNode }) {
  const comparing = useCompare((s) => s.a !== undefined);
  return comparing ? null : children;
}

/** The model's panels beside its tensor table; the welcome card before any model. */
function Workspace({ panes }: { readonly panes: PaneVisibility }) {
  const model = useAppStore((s) => s.model);
  if (model === undefined) return <Welcome />;
  return (
    <ErrorBoundary area="model view" resetKey={model}>
      <main className="workspace" data-sidebar={panes.sidebar}>
        <aside className="sidebar" aria-label="Model details" hidden={!panes.sidebar}>
          <ModelSummary />
          <SettingsPanel />
          <MemoryMapPanel />
          <DimsPanel />
          <BindingsPanel />
          <UnknownShapesPanel />
          <DiagnosticsPanel />
          <ComparePanel />
          <ExportPanel />
        </aside>
        <SplitPane direction="column" initial={[0.7, 0.3]} labels={['Resize the views and the tensor table']} minFraction={0.15} hidden={[!(panes.graph || panes.heap || panes.growth || panes.details), !panes.table]}>
          <SplitPane
            direction="row"
            initial={[0.27, 0.48, 0.3, 0.25]}
            labels={['Resize the graph and the heap', panes.growth ? 'Resize the heap and the growth' : 'Resize the heap and the details', 'Resize the growth and the details']}
            minFraction={0.12}
            testId="views"
            hidden={[!panes.graph, !panes.heap, !panes.growth, !panes.details]}
          >
            <ErrorBoundary area="graph" resetKey={model}>
              <GraphPanel />
            </ErrorBoundary>
            <ErrorBoundary area="heap" resetKey={model}>
              <HeapPanel />
            </ErrorBoundary>
            <ErrorBoundary area="growth" resetKey={model}>
              <GrowthPanel active={panes.growth} />
            </ErrorBoundary>
            <DetailsPanel />
          </SplitPane>
          <TensorTable />
        </SplitPane>
      </main>
    </ErrorBoundary>
  );
}
