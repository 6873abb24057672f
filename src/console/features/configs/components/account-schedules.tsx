/**
 * On the configs page: the account's scheduled changes waiting to run, and the last ones that
 * failed with their reason, each leading to its config. Nothing where there are none.
 */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { Time } from '../../../components/time';
import { accountSchedulesQuery } from '../api/schedules';

export function AccountSchedules() {
  const titleId = useId();
  const schedules = useQuery(accountSchedulesQuery()).data;
  if (!schedules || schedules.length === 0) return null;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Scheduled changes</h2>
      <ul>
        {schedules.map((schedule) => {
          const what = schedule.action === 'publish' ? 'Publish' : 'A/B step';
          const config = (
            <Link to={`/configs/${encodeURIComponent(schedule.config_id)}`}>
              {schedule.config_id}
            </Link>
          );
          return (
            <li key={schedule.id}>
              {schedule.status === 'failed' ? (
                <span className="warning-text">
                  {what} of {config} at <Time value={schedule.at} /> failed: {schedule.reason}
                </span>
              ) : (
                <>
                  {what} of {config} at <Time value={schedule.at} />, scheduled by{' '}
                  {schedule.scheduled_by.email}
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
