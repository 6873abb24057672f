/**
 * Under the editor: compare this config with another environment, and the config's scheduled
 * changes (pending ones with Cancel, failed ones with their reason). Shown where the server
 * offers environments and schedules. A new schedule starts beside Publish (schedule-dialog.tsx).
 */
import { useId } from 'react';
import { Link } from 'react-router';
import type { Schedule } from '../../../../contract/environments';
import { useAccounts } from '../../../api/accounts';
import { Button } from '../../../components/button';
import { Time } from '../../../components/time';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCancelSchedule, useConfigSchedules } from '../api/schedules';

export function ReleasePanel({ configId }: { readonly configId: string }) {
  const titleId = useId();
  const accounts = useAccounts().data;
  const schedules = useConfigSchedules(configId).data;
  const compare = (accounts?.length ?? 0) > 1;
  if (!compare && !schedules?.length) return null;
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Releases</h2>
      {compare && (
        <div className="form-actions">
          <Link className="button button-secondary" to={`/configs/${configId}/compare`}>
            Compare with…
          </Link>
        </div>
      )}
      {schedules && schedules.length > 0 && <ScheduleList schedules={schedules} />}
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
