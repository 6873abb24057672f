/**
 * Helpers for the console's component tests: a fresh QueryClient with retry off per test,
 * a memory router, and a clean connection and storage after each test.
 */
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  UNSAFE_createMemoryHistory as createMemoryHistory,
  useRoutes,
  type RouteObject,
} from 'react-router';
import { afterEach, vi } from 'vitest';
import type { AuthStatus } from '../../contract/auth-status';
import { AppProvider } from '../app/provider';
import { connectionStore } from '../lib/connection';
import { GuardedRouter } from '../lib/navigation';
import { clearNotices } from '../lib/notices';

afterEach(() => {
  cleanup();
  connectionStore.signOut();
  connectionStore.dismissSignOutReason();
  sessionStorage.clear();
  localStorage.clear();
  clearNotices();
  vi.useRealTimers();
});

export const TEST_BASE_URL = `${window.location.origin}/api/v1`;
export const TEST_KEY = 'sk_test_0123456789abcdefghijklmnopqrstuv';

/** An admin's key that may do everything with configs. */
export const ADMIN_STATUS: AuthStatus = {
  idp_organization_id: 'org_1',
  email: 'ada@example.com',
  role: 'admin',
  api_key_id: 'key_admin',
  api_key_name: 'Admin key',
  api_key_obfuscated_value: 'sk_…aaaa',
  permissions: ['config:read', 'config:write', 'config:publish'],
};

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

/**
 * Signed in for a test: with a session (the cookie, which MSW does not check), or with
 * `key`, a key held in memory as against a server without sessions. `person` is who signed
 * in (user id or email), for tests of signing in again.
 */
export function connectForTest({
  key = false,
  person = null,
}: { key?: boolean; person?: string | null } = {}): void {
  connectionStore.signIn({ baseUrl: TEST_BASE_URL, apiKey: key ? TEST_KEY : null }, person);
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** Renders routes with the app's providers and router, starting at `path`. */
export function renderRoutes(
  routes: RouteObject[],
  { path = '/settings', queryClient = createTestQueryClient() } = {},
) {
  const history = createMemoryHistory({ initialEntries: [path], v5Compat: true });
  const result = render(
    <AppProvider queryClient={queryClient}>
      <GuardedRouter history={history}>
        <Routes routes={routes} />
      </GuardedRouter>
    </AppProvider>,
  );
  return { ...result, history, queryClient };
}

/** Renders one element (at every path) with the app's providers. */
export function renderWithProviders(element: ReactNode, options: { path?: string } = {}) {
  return renderRoutes([{ path: '*', element }], options);
}
