/**
 * For the A/B test pages' tests, which still stub fetch: the same configs, answered by the
 * contract-checked MSW handlers of config-handlers.ts. Remove it once they use MSW too.
 */
import { getResponse } from 'msw';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { SeenRequest } from '../../../testing/test-utils';
import { configHandlers } from './config-handlers';
import { ConfigStore } from './config-store';

export { ADMIN_STATUS } from './config-handlers';
export { LIVE_YAML } from './config-store';

export type FakeConfigServer = ConfigStore & {
  handle(request: SeenRequest): Promise<Response>;
};

export function createFakeConfigServer({
  offersConfigs = true,
  status,
  liveYaml,
}: { offersConfigs?: boolean; status?: AuthStatus; liveYaml?: string } = {}): FakeConfigServer {
  const store = new ConfigStore(liveYaml);
  const handlers = configHandlers(store, { offersConfigs, ...(status ? { status } : {}) });
  return Object.assign(store, {
    async handle({ url, method, headers, body }: SeenRequest): Promise<Response> {
      const request = new Request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await getResponse(handlers, request)) ?? new Response(null, { status: 404 });
    },
  });
}
