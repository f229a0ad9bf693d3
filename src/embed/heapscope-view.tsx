// <heapscope-view src="model.onnx" strategy="..." target="..." dims="batch=4"
// panes="heap,explain">: the chrome-less view as a custom element for documentation pages, built as
// its own bundle (vite.embed.config.ts). Each element has a shadow root with
// the bundle's stylesheet, its own store and its own model worker; no iframe.

// The base styles come first so that the views' own styles override them.
import '../styles.css';
import '../views/shell.css';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { parseDimsAttribute } from './dims-attribute';
import { parseEmbedPanes } from './embed-panes';
import { usableSettings } from '../settings/usable';
import { EmbedWorkspace } from './embed-workspace';
import { createAppStore, type AppStore } from '../store/create-store';
import { StoreContext } from '../store/context';
import { selectPageSummary, selectStatus, type PageSummary } from '../store/selectors';
import { ErrorBanner } from '../views/panels/error-banner';
import { LoadProgressBar } from '../views/panels/progress-bar';
import { createModelClient, type ModelClient } from '../worker/client';

/** The stylesheet the embed build writes beside this script. */
const STYLESHEET = 'heapscope-view.css';

/** What the element says of a saved plan named by `src`: it is no model, and the full page opens it. */
const SAVED_PLAN_IN_EMBED = 'this is a heapscope saved plan, not a model: a saved plan opens in the full page (drop it there, or link to it with ?model=), not in an embedded view';

/** The custom element; see the module header. */
export class HeapscopeViewElement extends HTMLElement {
  static readonly observedAttributes = ['src', 'strategy', 'target', 'dims', 'panes'];

  private root: Root | undefined;
  private store: AppStore | undefined;
  private client: ModelClient | undefined;
  private unsubscribe: (() => void) | undefined;

  /** The plan on screen, like window.heapscope.summary() of the page. */
  summary(): PageSummary | undefined {
    return this.store === undefined ? undefined : { ...selectPageSummary(this.store.getState()) };
  }

  connectedCallback(): void {
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    shadow.replaceChildren();
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL(STYLESHEET, import.meta.url).href;
    const host = document.createElement('div');
    host.className = 'app';
    host.dataset.embed = 'true';
    shadow.append(link, host);
    this.client = createModelClient();
    const store = createAppStore({
      client: this.client,
      fetch: (input, init) => window.fetch(input, init),
      baseUrl: document.baseURI,
      sampleUrl: this.modelUrl(),
    });
    this.store = store;
    this.unsubscribe = store.subscribe(() => this.publishStatus());
    this.publishStatus();
    this.root = createRoot(host);
    this.render();
    void this.open();
  }

  /** Renders the view with the panes the `panes` attribute names. */
  private render(): void {
    if (this.root === undefined || this.store === undefined) return;
    const panes = parseEmbedPanes(this.getAttribute('panes'));
    if (panes.ignored.length > 0) console.warn(`<heapscope-view>: ignored panes ${panes.ignored.join(', ')} (graph, heap, chart, explain, growth)`);
    this.root.render(
      <StrictMode>
        <StoreContext.Provider value={this.store}>
          <LoadProgressBar />
          <ErrorBanner />
          <EmbedWorkspace panes={panes.panes} />
        </StoreContext.Provider>
      </StrictMode>,
    );
  }

  disconnectedCallback(): void {
    this.unsubscribe?.();
    this.root?.unmount();
    this.client?.dispose();
    this.root = undefined;
    this.store = undefined;
    this.client = undefined;
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (this.store === undefined || old === value) return;
    if (name === 'panes') this.render();
    else if (name === 'src' || name === 'dims') void this.open();
    else void this.store.getState().actions.setSettings(this.settings());
  }

  /** Opens `src` with the element's settings and dims. */
  private async open(): Promise<void> {
    const store = this.store;
    if (store === undefined) return;
    const { actions } = store.getState();
    await actions.setSettings(this.settings());
    const dims = parseDimsAttribute(this.getAttribute('dims') ?? '');
    if (dims.ignored.length > 0) console.warn(`<heapscope-view>: ignored dims ${dims.ignored.join(', ')} (dims take whole numbers)`);
    await actions.openUrl(this.modelUrl(), dims.values, {}, (_file, name) => {
      // The plan viewer is the full page's: the element says where the plan opens, not the command line's words.
      actions.showFileError(name, { code: 'not-onnx', message: SAVED_PLAN_IN_EMBED });
      return Promise.resolve();
    });
  }

  private modelUrl(): string {
    return new URL(this.getAttribute('src') ?? '', document.baseURI).href;
  }

  /**
   * The target and strategy attributes as settings. A name the planner does
   * not know is left out with a console warning, as a link's is: the target
   * stays as it was (the default at first), the strategy goes to the
   * target's default, and the element still shows a plan.
   */
  private settings(): { target?: string; strategy: string | undefined } {
    const target = this.getAttribute('target')?.trim();
    const strategy = this.getAttribute('strategy')?.trim();
    const { settings, leftOut } = usableSettings({ ...(target ? { target } : {}), ...(strategy ? { strategy } : {}) });
    for (const left of leftOut) {
      const [name, value] = Object.entries(left.part)[0] ?? ['?', '?'];
      console.warn(`<heapscope-view>: ignored ${name}=${JSON.stringify(value)}: ${left.reason}`);
    }
    return { ...(settings.target === undefined ? {} : { target: settings.target }), strategy: settings.strategy };
  }

  /** Mirrors the status as data-status (idle, loading, ready, error), like the page's body. */
  private publishStatus(): void {
    if (this.store === undefined) return;
    const status = selectStatus(this.store.getState());
    if (this.dataset.status !== status) this.dataset.status = status;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'heapscope-view': HeapscopeViewElement;
  }
}

if (!customElements.get('heapscope-view')) customElements.define('heapscope-view', HeapscopeViewElement);
