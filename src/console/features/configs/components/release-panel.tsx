/**
 * Under the editor: compare this config with another environment, schedule the publish of a
 * draft, and the config's scheduled changes (pending ones with Cancel, failed ones with
 * their reason). Shown where the server offers environments and schedules.
 */
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Schedule } from '../../../../contract/environments';
import { useAccounts } from '../../../api/accounts';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Time } from '../../../components/time';
import { useTypedConfirmation } from '../../../components/type-to-confirm';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCancelSchedule, useConfigSchedules, useCreateSchedule } from '../api/schedules';

/** What the panel needs of the config. */
interface ReleasedConfig {
  readonly id: string;
  readonly label: string;
}

interface ReleasePanelProps {
  readonly config: ReleasedConfig;
  readonly isDraft: boolean;
  readonly canPublish: boolean;
}

export function ReleasePanel({ config, isDraft, canPublish }: ReleasePanelProps) {
  const titleId = useId();
  const accounts = useAccounts().data;
  const schedules = useConfigSchedules(config.id).data;
  const [scheduling, setScheduling] = useState(false);
  const compare = (accounts?.length ?? 0) > 1;
  const schedule = isDraft && canPublish && schedules !== null && schedules !== undefined;
  if (!compare && !schedule && !schedules?.length) return null;
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Releases</h2>
      <div className="form-actions">
        {compare && (
          <Link className="button button-secondary" to={`/configs/${config.id}/compare`}>
            Compare with…
          </Link>
        )}
        {schedule && <Button onClick={() => setScheduling(true)}>Schedule publish…</Button>}
      </div>
      {schedules && schedules.length > 0 && <ScheduleList schedules={schedules} />}
      {schedule && (
        <ScheduleDialog open={scheduling} config={config} onClose={() => setScheduling(false)} />
      )}
    </section>
  );
}

function ScheduleList({ schedules }: { schedules: readonly Schedule[] }) {
  const cancel = useCancelSchedule();
  return (
    <ul className="schedule-list" aria-label="Scheduled changes">
      {schedules.map((schedule) => (
        <li key={schedule.id}>
          {schedule.status === 'failed' ? (
            <p role="status" className="alert alert-error">
              The publish scheduled for <Time value={schedule.at} /> failed: {schedule.reason}
            </p>
          ) : (
            <p>
              {schedule.action === 'publish' ? 'Publish' : 'A/B step'} at{' '}
              <Time value={schedule.at} />, scheduled by {schedule.scheduled_by.email}{' '}
              <Button
                pending={cancel.isPending && cancel.variables === schedule.id}
                onClick={() =>
                  cancel.mutate(schedule.id, {
                    onSuccess: () => notify('The scheduled publish was cancelled.'),
                  })
                }
              >
                Cancel schedule
              </Button>
            </p>
          )}
        </li>
      ))}
      {cancel.isError && (
        <li role="alert" className="alert alert-error">
          The schedule was not cancelled. {describeError(cancel.error)}
        </li>
      )}
    </ul>
  );
}

/** A time in the browser's zone for `<input type="datetime-local">`, a minute from now. */
function inAMinute(): string {
  const next = new Date(Date.now() + 60_000 - new Date().getTimezoneOffset() * 60_000);
  return next.toISOString().slice(0, 16);
}

function ScheduleDialog({
  open,
  config,
  onClose,
}: {
  open: boolean;
  config: ReleasedConfig;
  onClose: () => void;
}) {
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
      { at: when.toISOString(), config_id: config.id, action: 'publish' },
      {
        onSuccess: () => {
          notify(`${config.label} will be published at ${when.toLocaleString()}.`);
          close();
        },
      },
    );
  };
  return (
    <Dialog open={open} onClose={close} title={`Schedule the publish of ${config.label}`}>
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
