// The graph pane (layout to come).

/** The graph pane. */
export function GraphPanel() {
  return (
    <section className="pane graph-pane" aria-labelledby="graph-title" data-testid="graph-pane">
      <div className="pane-toolbar">
        <h2 id="graph-title" className="pane-title">
          Graph
        </h2>
      </div>
    </section>
  );
}
