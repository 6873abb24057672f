import { Link, useLocation } from 'react-router';

/** What the last create or lifecycle step did, for the page it leads to. */
export interface PageOutcome {
  readonly text: string;
  /** The config it produced, and words for the link to it. */
  readonly configId: string;
  readonly linkText: string;
}

function isPageOutcome(value: unknown): value is PageOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const { text, configId, linkText } = value as Record<string, unknown>;
  return typeof text === 'string' && typeof configId === 'string' && typeof linkText === 'string';
}

/** The outcome the last step left in the router state (a reload does not repeat it). */
export function usePageOutcome(): PageOutcome | null {
  const state: unknown = useLocation().state;
  const outcome: unknown =
    typeof state === 'object' && state !== null && 'outcome' in state ? state.outcome : null;
  return isPageOutcome(outcome) ? outcome : null;
}

export function PageOutcomeNotice({ outcome }: { outcome: PageOutcome }) {
  return (
    <div role="status" className="alert alert-success">
      <p>
        {outcome.text}{' '}
        <Link to={`/configs/${encodeURIComponent(outcome.configId)}`}>{outcome.linkText}</Link>
      </p>
    </div>
  );
}
