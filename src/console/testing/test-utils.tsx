/**
 * Helpers for the console's component tests: a fresh QueryClient with retry off per test,
 * a memory router, a mocked global fetch, and a clean connection after each test.
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
import {
  PROBLEM_CODES,
  problemOf,
  PROBLEM_CONTENT_TYPE,
  type ProblemCode,
} from '../../contract/problem';
import type { AuthStatus } from '../../contract/auth-status';
import { AppProvider } from '../app/provider';
import { connectionStore } from '../lib/connection';
import { GuardedRouter } from '../lib/navigation';
import { clearNotices } from '../lib/notices';

afterEach(() => {
  cleanup();
  connectionStore.signOut();
  sessionStorage.clear();
  localStorage.clear();
  clearNotices();
  vi.unstubAllGlobals();
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

export interface SeenRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  /** The fetch's cache mode. */
  readonly cache: RequestCache | undefined;
}

export type FetchHandler = (request: SeenRequest) => Response | Promise<Response>;

/** Replaces the global fetch; returns the requests it saw. */
export function mockFetch(handler: FetchHandler): SeenRequest[] {
  const seen: SeenRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request: SeenRequest = {
      url: input instanceof Request ? input.url : String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      cache: init.cache,
    };
    seen.push(request);
    return handler(request);
  });
  return seen;
}

export function jsonResponse(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function problemResponse(
  code: ProblemCode,
  detail: string,
  headers: Record<string, string> = {},
  extra: Parameters<typeof problemOf>[2] = {},
): Response {
  const problem = problemOf(code, detail, extra);
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/** The answer to a key that is not valid, revoked or expired (`code`), as the service sends it. */
export function unauthorizedResponse(
  code: 'api_key_invalid' | 'api_key_revoked' | 'api_key_expired',
  detail: string = PROBLEM_CODES[code].title,
): Response {
  return problemResponse(code, detail, {
    'WWW-Authenticate': `Bearer realm="provisioning", error="invalid_token", error_description="${detail}"`,
  });
}

export function connectForTest(remember = false): void {
  connectionStore.connect({ baseUrl: TEST_BASE_URL, apiKey: TEST_KEY }, remember);
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
