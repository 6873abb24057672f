/**
 * Runs one lifecycle step on the config that holds the test, at the revision the page
 * showed (If-Match): a step never lands on a version the person has not seen. What happens
 * next (which page to show) is the caller's: `onDone` gets the step and the version it
 * published.
 */
import type { ConfigEditResult } from '../../../contract/config-edit';
import type { Operation } from '../../../contract/operations';
import type { LifecycleStep } from '../lifecycle';
import { useAbTestEdit } from './edit-ab-tests';
import type { ConfigWithContents } from '../../api/get-config-contents';

/** A step that went through: the published version it produced is live. */
export interface StepDone {
  readonly step: LifecycleStep;
  readonly testId: string;
  readonly result: ConfigEditResult;
}

/** The published version's label, as the server named it. */
export function publishedLabelOf(done: StepDone): string {
  return done.result.validation.source?.name ?? done.result.id;
}

/** "Started <id>. Published as the version “<label>”, which is now live." */
export function describeStepDone(done: StepDone): string {
  return `${done.step.done} ${done.testId}. Published as the version “${publishedLabelOf(done)}”, which is now live.`;
}

/** `onClose` closes the step's dialog: after a step, or when the person cancels. */
export function useRunLifecycleStep(
  source: ConfigWithContents,
  testId: string,
  onClose: () => void,
  onDone: (done: StepDone) => unknown,
) {
  const edit = useAbTestEdit();

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
    await onDone({ step, testId, result: output.result });
  };

  return { run, edit, close };
}
