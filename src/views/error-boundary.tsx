// Keeps a render error from blanking the page: shows what failed and a way
// back, and marks the page status as 'error'.

import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Props of ErrorBoundary. */
export interface ErrorBoundaryProps {
  readonly area: string; // what this boundary guards, for the message
  readonly resetKey?: unknown; // a new value (e.g. another model) clears the error
  readonly children: ReactNode;
}

interface ErrorBoundaryState {
  readonly error: Error | undefined;
  readonly resetKey: unknown;
}

/** Catches render errors of its children and shows a readable fallback instead. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: undefined, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return props.resetKey !== state.resetKey ? { error: undefined, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    document.body.dataset.status = 'error';
    console.error(`heapscope: the ${this.props.area} failed to render`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    return (
      <div className="crash" role="alert" data-testid="crash">
        <h2>The {this.props.area} could not be shown</h2>
        <p className="mono">{error.message}</p>
        <p className="muted">Open another model, or reload the page. The model never left this machine.</p>
        <div className="crash-actions">
          <button type="button" className="button" onClick={() => this.setState({ error: undefined })}>
            Try again
          </button>
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload page
          </button>
        </div>
      </div>
    );
  }
}
