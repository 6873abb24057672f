import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** What to show instead of the children; `reset` renders them again. */
  fallback: (props: { error: unknown; reset: () => void }) => ReactNode;
  children: ReactNode;
  onError?: (error: unknown, info: ErrorInfo) => void;
}

interface ErrorBoundaryState {
  failed: boolean;
  error: unknown;
}

/** Catches render errors of a region, so that one broken part does not blank the page. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  reset = (): void => {
    this.setState({ failed: false, error: undefined });
  };

  override render(): ReactNode {
    if (this.state.failed)
      return this.props.fallback({ error: this.state.error, reset: this.reset });
    return this.props.children;
  }
}

/** The fallback of a region: says what failed and offers to try again. */
export function RegionError({ what, reset }: { what: string; reset: () => void }) {
  return (
    <div className="region-error" role="alert">
      <p>{what} could not be shown.</p>
      <button type="button" className="button button-secondary" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
