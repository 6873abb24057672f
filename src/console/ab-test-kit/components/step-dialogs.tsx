/**
 * One dialog per lifecycle step. Start, end and delete only confirm; promote asks for the
 * winner and shows which settings it copies into the app; edit changes the description, and
 * the variants while the test is a draft.
 */
import { useEffect, useEffectEvent, useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { AbTestContents, AppContents } from '../../../configs';
import { operations } from '../../../contract/operations';
import { FormTextAreaField } from '../../components/form';
import { FieldError } from '../../components/form-fields';
import type { ConfigWithContents } from '../../api/get-config-contents';
import { useRunLifecycleStep, type StepDone } from '../api/run-lifecycle-step';
import {
  promoteAbTestSchema,
  stepSchema,
  updateAbTestSchema,
  type PromoteAbTestValues,
  type UpdateAbTestValues,
} from '../form/ab-test-forms';
import { fieldMessagesOf, isVariantField, type TestFieldName } from '../form/server-errors';
import { rowsOfVariants, variantsOfRows } from '../form/variant-rows';
import { variantsEditable, type LifecycleStep } from '../lifecycle';
import { StepDialogFrame } from './step-dialog-frame';
import { VariantsFieldset } from './variants-fieldset';

export interface StepDialogProps {
  step: LifecycleStep;
  source: ConfigWithContents;
  test: AbTestContents;
  onClose: () => void;
  /** After the step: the page to show next is the caller's. */
  onDone: (done: StepDone) => unknown;
  /** Promote: the variant chosen already (the results' clear winner). */
  winner?: string | undefined;
}

function defaultLabelOf(step: LifecycleStep, test: AbTestContents): string {
  const word = step.action === 'update_ab_test' ? 'Update' : step.verb;
  return `${word} A/B test ${test.id}`;
}

/** Puts what the server said about a field beside it (the rest is listed at the form). */
function useServerFieldErrors(
  error: unknown,
  test: AbTestContents,
  put: (field: TestFieldName, message: string) => void,
) {
  const putEvent = useEffectEvent(put);
  useEffect(() => {
    for (const { field, message } of fieldMessagesOf(error, {
      item: '/operations/0',
      test: `/ab_tests/${test.index}`,
    })) {
      putEvent(field, message);
    }
  }, [error, test.index]);
}

const STEP_OPERATION = {
  start_ab_test: operations.startAbTest,
  end_ab_test: operations.endAbTest,
  delete_ab_test: operations.deleteAbTest,
} as const;

/** Start, end, delete: a question, the version label, and the step's button. */
export function ConfirmStepDialog({ step, source, test, onClose, onDone }: StepDialogProps) {
  const { run, edit, close } = useRunLifecycleStep(source, test.id, onClose, onDone);
  const action = step.action as keyof typeof STEP_OPERATION;

  return (
    <StepDialogFrame
      open
      title={`${step.verb} ${test.id}?`}
      source={source}
      onClose={close}
      schema={stepSchema}
      defaultValues={{ summary: '' }}
      onSubmit={({ summary }) => run(step, STEP_OPERATION[action](test.id), summary)}
      confirmLabel={step.verb}
      confirmVariant={action === 'delete_ab_test' ? 'danger' : 'primary'}
      defaultLabel={defaultLabelOf(step, test)}
      pending={edit.isPending}
      error={edit.error}
      failure={`${test.id} was not ${step.done.toLowerCase()}.`}
      focusCancel
    >
      <p>{STEP_EFFECT[action](test)}</p>
    </StepDialogFrame>
  );
}

const STEP_EFFECT: Record<keyof typeof STEP_OPERATION, (test: AbTestContents) => string> = {
  start_ab_test: (test) =>
    `${test.id} starts running in ${test.app ?? 'its app'} now; its variants can no longer change.`,
  end_ab_test: (test) => `${test.id} stops now. You can still promote a winner afterwards.`,
  delete_ab_test: (test) => `${test.id} is removed from the config.`,
};

/** The settings the winner copies into its app: each key with the app's value now. */
function copiedSettings(
  test: AbTestContents,
  winner: string,
  app: AppContents | undefined,
): { key: string; from: string; to: string }[] {
  const variant = test.variants.find((candidate) => candidate.id === winner);
  if (!variant) return [];
  return Object.entries(variant.settings).map(([key, value]) => ({
    key,
    from: app && key in app.settings ? String(app.settings[key]) : '(not set)',
    to: String(value),
  }));
}

export function PromoteDialog({ step, source, test, onClose, onDone, winner }: StepDialogProps) {
  const { run, edit, close } = useRunLifecycleStep(source, test.id, onClose, onDone);
  return (
    <StepDialogFrame
      open
      title={`Promote a winner of ${test.id}?`}
      source={source}
      onClose={close}
      schema={promoteAbTestSchema}
      defaultValues={{ winner: winner ?? '', summary: '' }}
      onSubmit={({ winner, summary }) =>
        run(step, operations.promoteAbTest(test.id, winner), summary)
      }
      confirmLabel="Promote"
      defaultLabel={defaultLabelOf(step, test)}
      pending={edit.isPending}
      error={edit.error}
      failure={`${test.id} was not promoted.`}
      wide
    >
      <WinnerFields source={source} test={test} error={edit.error} />
    </StepDialogFrame>
  );
}

/** The winner to choose, and the settings it copies into the app. */
function WinnerFields({
  source,
  test,
  error,
}: Pick<StepDialogProps, 'source' | 'test'> & { error: unknown }) {
  const {
    register,
    control,
    setError,
    formState: { errors },
  } = useFormContext<PromoteAbTestValues>();
  useServerFieldErrors(error, test, (field, message) => {
    if (field === 'winner') setError(field, { type: 'server', message });
  });
  const winner = useWatch({ control, name: 'winner' });
  const winnerErrorId = useId();
  const app = source.contents?.apps.find((candidate) => candidate.id === test.app);
  const copied = winner ? copiedSettings(test, winner, app) : [];

  return (
    <>
      <fieldset
        className="radio-group"
        aria-describedby={errors.winner ? winnerErrorId : undefined}
      >
        <legend>Winning variant</legend>
        {test.variants.map((variant) => (
          <label key={variant.id} className="radio">
            <input type="radio" value={variant.id} {...register('winner')} />
            {variant.id}
          </label>
        ))}
        <FieldError id={winnerErrorId} message={errors.winner?.message} />
      </fieldset>
      {winner && (
        <div aria-live="polite">
          {copied.length === 0 ? (
            <p>{winner} overrides no settings: the app’s settings stay as they are.</p>
          ) : (
            <table className="table">
              <caption>
                Settings copied into {test.app ?? 'the app'} from {winner}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Setting</th>
                  <th scope="col">Now</th>
                  <th scope="col">After promoting</th>
                </tr>
              </thead>
              <tbody>
                {copied.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{row.key}</th>
                    <td>{row.from}</td>
                    <td>{row.to}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </>
  );
}

export function UpdateDialog({ step, source, test, onClose, onDone }: StepDialogProps) {
  const { run, edit, close } = useRunLifecycleStep(source, test.id, onClose, onDone);
  const editable = variantsEditable(test.status);

  return (
    <StepDialogFrame
      open
      title={`Edit ${test.id}`}
      source={source}
      onClose={close}
      schema={updateAbTestSchema(editable)}
      defaultValues={{
        description: test.description ?? '',
        variants: rowsOfVariants(test.variants),
        summary: '',
      }}
      onSubmit={({ description, variants, summary }: UpdateAbTestValues) =>
        run(
          step,
          operations.updateAbTest({
            id: test.id,
            // Only what changed: an untouched empty field must not write `description: ""`.
            ...(description !== (test.description ?? '') ? { description } : {}),
            ...(editable ? { variants: variantsOfRows(variants) } : {}),
          }),
          summary,
        )
      }
      confirmLabel="Save and publish"
      defaultLabel={defaultLabelOf(step, test)}
      pending={edit.isPending}
      error={edit.error}
      failure={`${test.id} was not updated.`}
      wide
    >
      <UpdateFields source={source} test={test} editable={editable} error={edit.error} />
    </StepDialogFrame>
  );
}

/** The description, and the variants while the test is a draft. */
function UpdateFields({
  source,
  test,
  editable,
  error,
}: Pick<StepDialogProps, 'source' | 'test'> & { editable: boolean; error: unknown }) {
  const { setError } = useFormContext<UpdateAbTestValues>();
  useServerFieldErrors(error, test, (field, message) => {
    if (field === 'description' || (editable && isVariantField(field))) {
      setError(field, { type: 'server', message });
    }
  });
  const app = source.contents?.apps.find((candidate) => candidate.id === test.app);

  return (
    <>
      <FormTextAreaField name="description" label="Description" rows={3} />
      {editable ? (
        <VariantsFieldset app={app} />
      ) : (
        <p className="muted">The test is running: only its description can change.</p>
      )}
    </>
  );
}

/** The dialog of a step. */
export function StepDialog(props: StepDialogProps) {
  switch (props.step.action) {
    case 'update_ab_test':
      return <UpdateDialog {...props} />;
    case 'promote_ab_test':
      return <PromoteDialog {...props} />;
    default:
      return <ConfirmStepDialog {...props} />;
  }
}
