/** Scheduled changes of a config: `GET/POST /schedules`, `DELETE /schedules/{id}`. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateScheduleRequest, Schedule } from '../../../../contract/environments';
import { apiRequest } from '../../../lib/api-client';
import { optionalRequest, queryKeysOf } from '../../../lib/resource-queries';
import { environmentEndpoints } from '../../../../contract/environment-endpoints';

export const scheduleKeys = queryKeysOf('schedules');

/** The config's pending and failed schedules (null: the server offers none). */
export function configSchedulesQuery(configId: string) {
  return queryOptions({
    queryKey: [...scheduleKeys.list(), configId],
    queryFn: async ({ signal }): Promise<readonly Schedule[] | null> => {
      const [pending, failed] = await Promise.all([
        optionalRequest(environmentEndpoints.listSchedules, {
          query: { config_id: configId, status: 'pending' },
          signal,
        }),
        optionalRequest(environmentEndpoints.listSchedules, {
          query: { config_id: configId, status: 'failed' },
          signal,
        }),
      ]);
      return pending === null ? null : [...pending, ...(failed ?? [])];
    },
  });
}

export function useConfigSchedules(configId: string) {
  return useQuery(configSchedulesQuery(configId));
}

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScheduleRequest) =>
      apiRequest(environmentEndpoints.createSchedule, { body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scheduleKeys.list() }),
  });
}

export function useCancelSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(environmentEndpoints.cancelSchedule, { params: { schedule_id: id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scheduleKeys.list() }),
  });
}

/** The account's pending schedules and its failed ones, newest first (null: none offered). */
export function accountSchedulesQuery() {
  return queryOptions({
    queryKey: [...scheduleKeys.list(), 'account'],
    queryFn: async ({ signal }): Promise<readonly Schedule[] | null> => {
      const [pending, failed] = await Promise.all([
        optionalRequest(environmentEndpoints.listSchedules, {
          query: { status: 'pending' },
          signal,
        }),
        optionalRequest(environmentEndpoints.listSchedules, {
          query: { status: 'failed', limit: '5' },
          signal,
        }),
      ]);
      return pending === null ? null : [...pending, ...(failed ?? [])];
    },
  });
}
