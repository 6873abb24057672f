/**
 * Runs one lifecycle step on the config that holds the test, at the revision the page
 * showed (If-Match): a step never lands on a version the person has not seen. Afterwards
 * the page moves to the test in the live config (or to the list, after a delete) and says
 * which published version the step produced.
 */
import { useNavigate } from 'react-router';
import type { Operation } from '../../../../contract/operations';
import type { PageOutcome } from '../components/page-outcome';
import type { LifecycleStep } from '../lifecycle';
import { useAbTestEdit } from './edit-ab-tests';
import { LIVE } from '../../../api/get-config';
import type { AbTestSource } from './get-ab-test-source';

export function testPath(configId: string, testId: string): string {
  return `/ab-tests/${encodeURIComponent(configId)}/${encodeURIComponent(testId)}`;
}

/** `onClose` closes the step's dialog: after a step, or when the person cancels. */
export function useRunLifecycleStep(source: AbTestSource, testId: string, onClose: () => void) {
  const edit = useAbTestEdit();
  const navigate = useNavigate();

  const close = () => {
    edit.reset();
    onClose();
  };

  const run = async (step: LifecycleStep, operation: Operation, summary: string) => {
    let output;
    try {
      output = await edit.mutateAsync({
        request: {
          config_id: source.config.id,
          operations: [operation],
          ...(summary.trim() ? { summary: summary.trim() } : {}),
        },
        revision: source.config.revision,
      });
    } catch {
      return; // The dialog shows `edit.error`.
    }
    // Awaited, not a mutate() callback: those never run once the page has moved on.
    onClose();
    const { result } = output;
    const label = result.validation.source?.name ?? result.id;
    const outcome: PageOutcome = {
      text: `${step.done} ${testId}. Published as the version “${label}”, which is now live.`,
      configId: result.id,
      linkText: `Open ${label}`,
    };
    const deleted = step.action === 'delete_ab_test';
    await navigate(deleted ? '/ab-tests' : testPath(LIVE, testId), {
      replace: !deleted,
      state: { outcome },
    });
  };

  return { run, edit, close };
}
