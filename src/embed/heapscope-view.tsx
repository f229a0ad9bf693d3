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
import { DEFAULT_SETTINGS } from '../settings/names';
import { dimsNotInModel } from '../store/missing-dims';
import { selectGrowthSummary, type GrowthSummary } from '../store/growth';
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

/** What found an attribute's value left out: the target and strategy, the dims as written, the dims the model lacks, the panes. */
type LeftOutSource = 'settings' | 'dims' | 'model' | 'panes';

/** A dims entry the attribute could not use, as parseDimsAttribute gives it ("batch=abc: why", or "junk"), quoted with why. */
function dimsEntry(entry: string): string {
  const colon = entry.indexOf(': ');
  return colon < 0 ? `dims "${entry}": not NAME=VALUE` : `dims "${entry.slice(0, colon)}": ${entry.slice(colon + 2)}`;
}

/** The custom element; see the module header. */
export class HeapscopeViewElement extends HTMLElement {
  static readonly observedAttributes = ['src', 'strategy', 'target', 'dims', 'panes'];

  private root: Root | undefined;
  private store: AppStore | undefined;
  private client: ModelClient | undefined;
  private unsubscribe: (() => void) | undefined;
  // The attributes' values left out, each "target=\"gpu\": why", by what found them: shown under the caption and
  // warned in the console, so a page's author sees a mistyped value where the view is
  private readonly leftOut: Record<LeftOutSource, readonly string[]> = { settings: [], dims: [], panes: [], model: [] };

  /** The plan on screen, as window.heapscope.summary() of the page gives it: `compare` is null (an element opens no comparison). */
  summary(): (PageSummary & { readonly compare: null; readonly growth: GrowthSummary | null }) | undefined {
    if (this.store === undefined) return undefined;
    const state = this.store.getState();
    return { ...selectPageSummary(state), compare: null, growth: selectGrowthSummary(state) };
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
    this.note('panes', panes.ignored.map((entry) => `panes "${entry}": no such pane (graph, heap, chart, explain, growth)`));
    const leftOut = [...this.leftOut.settings, ...this.leftOut.dims, ...this.leftOut.model, ...this.leftOut.panes];
    this.root.render(
      <StrictMode>
        <StoreContext.Provider value={this.store}>
          <LoadProgressBar />
          <ErrorBanner />
          <EmbedWorkspace panes={panes.panes} leftOut={leftOut} />
        </StoreContext.Provider>
      </StrictMode>,
    );
  }

  /** Sets what `source` left out of the attributes, warning each entry not warned already. */
  private note(source: LeftOutSource, entries: readonly string[]): void {
    for (const entry of entries) if (!this.leftOut[source].includes(entry)) console.warn(`<heapscope-view>: ignored ${entry}`);
    this.leftOut[source] = entries;
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
    else {
      const settings = this.settings();
      this.render();
      void this.store.getState().actions.setSettings(settings);
    }
  }

  /** Opens `src` with the element's settings and dims. */
  private async open(): Promise<void> {
    const store = this.store;
    if (store === undefined) return;
    const { actions } = store.getState();
    const settings = this.settings();
    const dims = parseDimsAttribute(this.getAttribute('dims') ?? '');
    this.note('dims', dims.ignored.map(dimsEntry));
    this.render();
    await actions.setSettings(settings);
    const opening = this.getAttribute('src');
    await actions.openUrl(this.modelUrl(), dims.values, {}, (_file, name) => {
      // The plan viewer is the full page's: the element says where the plan opens, not the command line's words.
      actions.showFileError(name, { code: 'not-onnx', message: SAVED_PLAN_IN_EMBED });
      return Promise.resolve();
    });
    // Known once the model is read: the dims it does not have. A model that failed to open leaves the one shown, whose dims were checked when it opened.
    const shown = store.getState();
    if (this.store !== store || this.getAttribute('src') !== opening || shown.error !== undefined || shown.model === undefined) return;
    this.note('model', dimsNotInModel(shown.model.inferred, dims.values).map(([key, value, why]) => `dims "${key}=${value}": ${why}`));
    this.render();
  }

  private modelUrl(): string {
    return new URL(this.getAttribute('src') ?? '', document.baseURI).href;
  }

  /**
   * The target and strategy attributes as settings. A name the planner does
   * not know is left out, as a link's is: said under the caption and in the
   * console, and planned with the default in its place, as when the
   * attribute is absent (the same markup gives the same plan, whatever the
   * element showed before).
   */
  private settings(): { target: string; strategy: string | undefined } {
    const target = this.getAttribute('target')?.trim();
    const strategy = this.getAttribute('strategy')?.trim();
    const { settings, leftOut } = usableSettings({ ...(target ? { target } : {}), ...(strategy ? { strategy } : {}) });
    this.note(
      'settings',
      leftOut.map((left) => {
        const [name, value] = Object.entries(left.part)[0] ?? ['?', '?'];
        return `${name}=${JSON.stringify(value)}: ${left.reason}`;
      }),
    );
    return { target: settings.target ?? DEFAULT_SETTINGS.target, strategy: settings.strategy };
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
