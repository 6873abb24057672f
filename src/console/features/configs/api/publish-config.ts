/** `POST /configs/{id}/publish`: a valid draft becomes a new published version, live. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfigRecord } from '../../../../contract/configs';
import { apiRequest } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { LIVE } from '../../../api/get-config';
import { dropFromConfigLists } from '../../../api/get-configs';
import { configEndpoints } from '../../../../contract/config-endpoints';

export interface PublishConfigInput {
  readonly id: string;
  /** The version label; empty: the draft's label. */
  readonly label: string;
}

export function publishConfig({ id, label }: PublishConfigInput): Promise<ConfigRecord> {
  const summary = label.trim();
  return apiRequest(configEndpoints.publishConfig, {
    params: { id },
    body: summary ? { summary } : {},
  });
}

export function usePublishConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishConfig,
    onSuccess: (published, { id }) => {
      queryClient.setQueryData(configsKeys.detail(published.id), published);
      dropFromConfigLists(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: configsKeys.list() });
      void queryClient.invalidateQueries({ queryKey: configsKeys.histories() });
      void queryClient.invalidateQueries({ queryKey: configsKeys.detail(LIVE) });
      // The draft is gone. Its page is still open until the person is moved on: refetching
      // it now would show "not found" instead of the way to the published version.
      void queryClient.invalidateQueries({ queryKey: configsKeys.detail(id), refetchType: 'none' });
    },
  });
}
