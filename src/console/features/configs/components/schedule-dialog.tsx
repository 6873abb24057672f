/**
 * The dialog that schedules the publish of a draft: a time in the browser's zone, the
 * environment's name on a protected one. Opened by "Schedule publish…" beside Publish.
 */
import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { useTypedConfirmation } from '../../../components/type-to-confirm';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCreateSchedule } from '../api/schedules';

/** A time in the browser's zone for `<input type="datetime-local">`, a minute from now. */
function inAMinute(): string {
  const next = new Date(Date.now() + 60_000 - new Date().getTimezoneOffset() * 60_000);
  return next.toISOString().slice(0, 16);
}

interface ScheduleDialogProps {
  readonly open: boolean;
  readonly draft: { readonly id: string; readonly label: string };
  readonly onClose: () => void;
}

export function ScheduleDialog({ open, draft, onClose }: ScheduleDialogProps) {
  const create = useCreateSchedule();
  const typed = useTypedConfirmation(open);
  const [at, setAt] = useState(inAMinute);
  const [mistake, setMistake] = useState<string | null>(null);
  const fieldId = useId();
  const hintId = useId();
  const close = () => {
    create.reset();
    typed.reset();
    setMistake(null);
    onClose();
  };
  const schedulePublish = () => {
    const when = new Date(at);
    if (Number.isNaN(when.getTime()) || when.getTime() <= Date.now()) {
      setMistake('Choose a time in the future.');
      return;
    }
    setMistake(null);
    create.mutate(
      { at: when.toISOString(), config_id: draft.id, action: 'publish' },
      {
        onSuccess: () => {
          notify(`${draft.label} will be published at ${when.toLocaleString()}.`);
          close();
        },
      },
    );
  };
  return (
    <Dialog open={open} onClose={close} title={`Schedule the publish of ${draft.label}`}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          typed.guard(schedulePublish)();
        }}
        noValidate
      >
        <p className="field">
          <label htmlFor={fieldId}>Publish at</label>
          <input
            id={fieldId}
            type="datetime-local"
            step={1}
            value={at}
            aria-describedby={hintId}
            aria-invalid={mistake !== null || undefined}
            onChange={(event) => setAt(event.target.value)}
          />
          <span id={hintId} className="hint">
            Your time zone. It runs as you, with the review policy as it is then.
          </span>
        </p>
        {mistake && (
          <p role="alert" className="alert alert-error">
            {mistake}
          </p>
        )}
        {typed.field}
        {typed.alert}
        {create.isError && (
          <p role="alert" className="alert alert-error">
            The publish was not scheduled. {describeError(create.error)}
          </p>
        )}
        <DialogActions
          confirmLabel="Schedule publish"
          confirmVariant="primary"
          onCancel={close}
          pending={create.isPending}
        />
      </form>
    </Dialog>
  );
}
