/** `POST /configs/{id}/activate`: an earlier published version becomes live again. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfigRecord } from '../../../../contract/configs';
import { apiRequest } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { configEndpoints } from '../../../../contract/config-endpoints';

export function activateConfig(id: string): Promise<ConfigRecord> {
  return apiRequest(configEndpoints.activateConfig, { params: { id } });
}

export function useActivateConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateConfig,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configsKeys.all }),
  });
}
