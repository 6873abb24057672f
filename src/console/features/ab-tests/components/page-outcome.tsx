import { Link, useLocation, useNavigate } from 'react-router';
import {
  describeStepDone,
  publishedLabelOf,
  type StepDone,
} from '../../../ab-test-kit/api/run-lifecycle-step';
import { LIVE } from '../../../api/get-config';
import { testPath } from '../test-path';

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

/**
 * After a lifecycle step: the test in the live config (the list, after a delete), saying
 * which published version the step produced.
 */
export function useShowStepOutcome(): (done: StepDone) => Promise<void> {
  const navigate = useNavigate();
  return async (done) => {
    const label = publishedLabelOf(done);
    const outcome: PageOutcome = {
      text: describeStepDone(done),
      configId: done.result.id,
      linkText: `Open ${label}`,
    };
    const deleted = done.step.action === 'delete_ab_test';
    await navigate(deleted ? '/ab-tests' : testPath(LIVE, done.testId), {
      replace: !deleted,
      state: { outcome },
    });
  };
}
