/** `DELETE /configs/{id}`: discard a draft. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { dropFromConfigLists } from '../../../api/get-configs';
import { configEndpoints } from '../../../../contract/config-endpoints';

export async function discardConfig(id: string): Promise<void> {
  await apiRequest(configEndpoints.deleteConfig, { params: { id } });
}

export function useDiscardConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: discardConfig,
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: configsKeys.detail(id) });
      dropFromConfigLists(queryClient, id);
      return queryClient.invalidateQueries({ queryKey: configsKeys.list() });
    },
  });
}
