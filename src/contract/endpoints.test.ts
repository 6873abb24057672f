import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CreateApiKeyRequest, CreatedApiKey } from './api-keys';
import type { ConfigListQueryInput, ConfigRecord } from './configs';
import {
  buildPath,
  contract,
  ENDPOINT_NAMES,
  permissionForEdit,
  permissionOf,
  toFastifyPath,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
  type RequestBodyOf,
  type ResponseBodyOf,
} from './endpoints';
import { operations } from './operations';
import { problemSchema } from './problem';

const endpoints = Object.entries(contract) as [string, Endpoint][];
const statusesOf = (endpoint: Endpoint) => Object.keys(endpoint.responses).map(Number);

describe('the contract table', () => {
  it('gives each endpoint its name in the table (the console names it in its errors)', () => {
    for (const [name, endpoint] of Object.entries(contract)) expect(endpoint.name).toBe(name);
  });

  it('lists the core endpoints and the others of docs/api.md, once each', () => {
    const routes = endpoints.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`);
    expect(routes.sort()).toEqual(
      [
        'GET /auth/status',
        'POST /config/edit',
        'GET /health',
        'GET /configs',
        'GET /configs/live',
        'GET /configs/{id}',
        'POST /configs/{id}/publish',
        'POST /configs/{id}/activate',
        'DELETE /configs/{id}',
        'GET /configs/{id}/history',
        'GET /configs/{id}/revisions/{revision}',
        'GET /config/schema',
        'GET /api-keys',
        'POST /api-keys',
        'DELETE /api-keys/{id}',
        'GET /openapi.json',
        'POST /configs/{id}/review-request',
        'POST /configs/{id}/reviews',
        'GET /configs/{id}/reviews',
        'GET /account/policy',
        'PUT /account/policy',
        'GET /client-keys',
        'POST /client-keys',
        'DELETE /client-keys/{id}',
        'GET /delivery/{client_key}/apps/{app_id}',
        'GET /delivery/{client_key}/apps/{app_id}/assignment',
        'GET /delivery/{client_key}/stream',
        'GET /webhooks',
        'POST /webhooks',
        'DELETE /webhooks/{id}',
        'GET /webhooks/{id}/deliveries',
        'POST /webhooks/{id}/test',
        'POST /webhooks/{id}/deliveries/{delivery_id}/retry',
        'GET /audit',
        'GET /audit/export',
        'GET /auth/options',
        'GET /auth/login',
        'GET /auth/callback',
        'POST /auth/password',
        'POST /auth/key-session',
        'POST /auth/refresh',
        'POST /auth/logout',
        'GET /sessions',
        'DELETE /sessions/{id}',
        'DELETE /sessions',
        'GET /members',
        'PATCH /members/{user_id}',
        'DELETE /members/{user_id}',
        'DELETE /members/{user_id}/sessions',
        'GET /invitations',
        'POST /invitations',
        'DELETE /invitations/{id}',
        'GET /invitations/{token}',
        'POST /invitations/{token}/accept',
        'GET /organization/settings',
        'PUT /organization/settings',
        'GET /accounts',
        'POST /accounts',
        'PATCH /accounts/{account_id}',
        'POST /schedules',
        'GET /schedules',
        'DELETE /schedules/{schedule_id}',
        'POST /promotions/preview',
        'POST /promotions',
        'PUT /organization/owners/{user_id}',
        'POST /delivery/{client_key}/events',
        'GET /metrics',
        'POST /metrics',
        'PATCH /metrics/{metric_id}',
        'DELETE /metrics/{metric_id}',
        'GET /ab-tests/{test_id}/results',
        'GET /ab-tests/{test_id}/results/timeseries',
        'POST /ab-tests/{test_id}/results/refresh',
      ].sort(),
    );
    expect(ENDPOINT_NAMES).toEqual(Object.keys(contract));
  });

  it('marks exactly the two seed endpoints as seed', () => {
    const seed = endpoints.filter(([, endpoint]) => endpoint.seed).map(([name]) => name);
    expect(seed.sort()).toEqual(['editConfig', 'getAuthStatus']);
  });

  it('marks the endpoints about the person, not one account, as person-level', () => {
    // A session reaching several accounts sends no X-Account-Id to these: add one knowingly.
    const personLevel = endpoints.filter(([, endpoint]) => endpoint.personLevel === true);
    expect(personLevel.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual(
      [
        'GET /auth/status',
        'POST /auth/refresh',
        'POST /auth/logout',
        'GET /sessions',
        'DELETE /sessions',
        'DELETE /sessions/{id}',
        'GET /accounts',
        'POST /accounts',
        'POST /invitations/{token}/accept',
      ].sort(),
    );
    for (const [name, endpoint] of personLevel) expect(endpoint.auth, name).not.toBe('client_key');
  });

  it('asks a key or a session of every endpoint but the probes and the ways to sign in', () => {
    const open = endpoints.filter(([, endpoint]) => endpoint.auth === 'public');
    expect(open.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`).sort()).toEqual([
      'GET /auth/callback',
      'GET /auth/login',
      'GET /auth/options',
      'GET /health',
      'GET /invitations/{token}',
      'GET /openapi.json',
      'POST /auth/password',
      'POST /invitations/{token}/accept',
    ]);
    for (const [, endpoint] of open) expect(endpoint.permission).toBeNull();
  });

  it('names the permission of each endpoint as docs/api.md does', () => {
    // A permission that depends on the body: each one it can be.
    const permissions = Object.fromEntries(
      endpoints.map(([, { method, path, permission }]) => [
        `${method} ${path}`,
        permission === null || typeof permission === 'string'
          ? permission
          : permission.cases.map((entry) => entry.permission),
      ]),
    );
    expect(permissions).toMatchObject({
      'GET /auth/status': null,
      'POST /config/edit': ['config:write', 'config:publish'],
      'GET /configs': 'config:read',
      'GET /configs/live': 'config:read',
      'GET /configs/{id}': 'config:read',
      'GET /configs/{id}/revisions/{revision}': 'config:read',
      'POST /configs/{id}/publish': 'config:publish',
      'POST /configs/{id}/activate': 'config:publish',
      'DELETE /configs/{id}': 'config:write',
      'GET /configs/{id}/history': 'config:read',
      'GET /config/schema': 'config:read',
      'GET /api-keys': 'api_keys:manage',
      'POST /api-keys': 'api_keys:manage',
      'DELETE /api-keys/{id}': 'api_keys:manage',
      'POST /configs/{id}/review-request': 'config:write',
      // A comment needs config:read, a verdict config:publish.
      'POST /configs/{id}/reviews': ['config:read', 'config:publish'],
      'GET /configs/{id}/reviews': 'config:read',
      'GET /account/policy': 'config:read',
      'PUT /account/policy': 'policy:manage',
      'GET /client-keys': 'client_keys:manage',
      'POST /client-keys': 'client_keys:manage',
      'DELETE /client-keys/{id}': 'client_keys:manage',
      // A client key grants these and nothing else: no permission applies.
      'GET /delivery/{client_key}/apps/{app_id}': null,
      'GET /delivery/{client_key}/apps/{app_id}/assignment': null,
      'GET /delivery/{client_key}/stream': null,
      'GET /webhooks': 'webhooks:manage',
      'POST /webhooks': 'webhooks:manage',
      'DELETE /webhooks/{id}': 'webhooks:manage',
      'GET /metrics': 'config:read',
      'POST /metrics': 'config:write',
      'PATCH /metrics/{metric_id}': 'config:write',
      'DELETE /metrics/{metric_id}': 'config:write',
      'GET /webhooks/{id}/deliveries': 'webhooks:manage',
      'POST /webhooks/{id}/test': 'webhooks:manage',
      'POST /webhooks/{id}/deliveries/{delivery_id}/retry': 'webhooks:manage',
      'GET /audit': 'audit:read',
      // Your own sessions: whoever is signed in.
      'GET /sessions': null,
      'DELETE /sessions': null,
      'GET /members': 'config:read',
      'PATCH /members/{user_id}': 'members:manage',
      'DELETE /members/{user_id}': 'members:manage',
      'DELETE /members/{user_id}/sessions': 'members:manage',
      'GET /invitations': 'members:manage',
      'POST /invitations': 'members:manage',
      'DELETE /invitations/{id}': 'members:manage',
      'GET /organization/settings': 'members:manage',
      'PUT /organization/settings': 'members:manage',
    });
  });

  it.each(endpoints)(
    '%s has one 2xx response and the problem statuses that can happen',
    (_, endpoint) => {
      const statuses = statusesOf(endpoint);
      // A browser's sign-in answers with a redirect instead.
      expect(statuses.filter((status) => status < 300 || status === 302)).toHaveLength(1);
      for (const status of statuses.filter((s) => s >= 400)) {
        expect(endpoint.responses[status]).toBe(problemSchema);
      }
      // Every endpoint is rate limited but the health probe.
      const expected = endpoint === contract.getHealth ? [] : [429];
      // A key is looked up in the database, which may not answer (503).
      if (endpoint.auth === 'signed_in') expected.push(401, 503);
      if (endpoint.permission) expected.push(403);
      if (endpoint.body) expected.push(400, 413, 415);
      if (endpoint.params) expected.push(404);
      expect(statuses).toEqual(expect.arrayContaining(expected));
    },
  );

  it.each(endpoints)('%s declares exactly the parameters its path names', (_, endpoint) => {
    const inPath = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    expect(Object.keys(endpoint.params?.shape ?? {})).toEqual(inPath);
  });

  it('takes If-Match on edit and sends ETags about configs', () => {
    expect(Object.keys(contract.editConfig.headers.shape)).toEqual(['if-match']);
    const withEtag = endpoints.filter(([, endpoint]) => endpoint.etag).map(([name]) => name);
    expect(withEtag.sort()).toEqual(
      [
        'activateConfig',
        'editConfig',
        'getConfig',
        'getConfigSchema',
        'getDeliveryView',
        'getLiveConfig',
        'getOpenApiDocument',
        'publishConfig',
        'requestReview',
      ].sort(),
    );
  });

  it('pages every GET whose 200 is a list: limit and cursor in its query, 400 among its answers', () => {
    // A person's accounts are bounded by the organization's cap (20), an account's metrics
    // by its own (200), and each comes in one list.
    const whole = ['listAccounts', 'listMetrics'];
    const lists = endpoints.filter(([name, endpoint]) => {
      const ok = endpoint.responses[200];
      return endpoint.method === 'GET' && ok?._zod.def.type === 'array' && !whole.includes(name);
    });
    expect(lists.map(([name]) => name).sort()).toEqual(
      [
        'listApiKeys',
        'listClientKeys',
        'listConfigs',
        'getConfigHistory',
        'listReviews',
        'listWebhookDeliveries',
        'listWebhooks',
        'getAudit',
        'listSessions',
        'listMembers',
        'listInvitations',
        'listSchedules',
      ].sort(),
    );
    for (const [name, endpoint] of lists) {
      const query = endpoint.query?._zod.def as { shape?: Record<string, unknown> } | undefined;
      expect({ name, paged: endpoint.paged }).toEqual({ name, paged: true });
      expect({ name, fields: Object.keys(query?.shape ?? {}) }).toEqual({
        name,
        fields: expect.arrayContaining(['limit', 'cursor']) as unknown,
      });
      expect({ name, statuses: statusesOf(endpoint) }).toEqual({
        name,
        statuses: expect.arrayContaining([400]) as unknown,
      });
    }
  });

  it('answers 304 to If-None-Match on the GETs a client keeps', () => {
    const conditional = endpoints
      .filter(([, endpoint]) => 304 in endpoint.responses)
      .map(([name]) => name);
    expect(conditional.sort()).toEqual(
      [
        'getConfig',
        'getConfigSchema',
        'getDeliveryView',
        'getLiveConfig',
        'getOpenApiDocument',
      ].sort(),
    );
    for (const [name, endpoint] of endpoints.filter(([, e]) => 304 in e.responses)) {
      expect(endpoint.method, name).toBe('GET');
      expect(endpoint.etag, name).toBe(true);
      expect(Object.keys(endpoint.headers?.shape ?? {}), name).toEqual(['if-none-match']);
    }
  });
});

describe('helpers', () => {
  it('builds a path, encoding each parameter', () => {
    expect(buildPath(contract.getConfig.path, { id: 'cfg_1' })).toBe('/configs/cfg_1');
    expect(buildPath(contract.getConfigHistory.path, { id: 'a/b c' })).toBe(
      '/configs/a%2Fb%20c/history',
    );
    expect(buildPath(contract.listConfigs.path)).toBe('/configs');
    expect(() => buildPath(contract.getConfig.path)).toThrow(/id/);
  });

  it('gives Fastify its route form', () => {
    expect(toFastifyPath('/configs/{id}/publish')).toBe('/configs/:id/publish');
    expect(toFastifyPath('/auth/status')).toBe('/auth/status');
  });

  it('needs config:publish for lifecycle operations, config:write otherwise', () => {
    expect(permissionForEdit([operations.deleteApp('a')])).toBe('config:write');
    expect(permissionForEdit([operations.createAbTest({ id: 't', app: 'a', variants: [] })])).toBe(
      'config:write',
    );
    expect(permissionForEdit([operations.startAbTest('t')])).toBe('config:publish');
  });

  it('says which permission a body needs where it depends on the body', () => {
    expect(permissionOf(contract.addReview, { verdict: 'comment' })).toBe('config:read');
    expect(permissionOf(contract.addReview, { verdict: 'approve' })).toBe('config:publish');
    expect(permissionOf(contract.editConfig, { operations: [operations.startAbTest('t')] })).toBe(
      'config:publish',
    );
    expect(permissionOf(contract.getConfig, undefined)).toBe('config:read');
    expect(permissionOf(contract.getHealth, undefined)).toBeNull();
  });
});

describe('types from the table (checked by tsc)', () => {
  it('gives each endpoint its request and response types', () => {
    expectTypeOf<ResponseBodyOf<typeof contract.getConfig>>().toEqualTypeOf<ConfigRecord>();
    expectTypeOf<ResponseBodyOf<typeof contract.createApiKey>>().toEqualTypeOf<CreatedApiKey>();
    expectTypeOf<ResponseBodyOf<typeof contract.deleteConfig>>().toEqualTypeOf<undefined>();
    expectTypeOf<
      RequestBodyOf<typeof contract.createApiKey>
    >().toEqualTypeOf<CreateApiKeyRequest>();
    expectTypeOf<RequestBodyOf<typeof contract.getConfig>>().toEqualTypeOf<undefined>();
    expectTypeOf<ParamsOf<typeof contract.getConfig>>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<QueryOf<typeof contract.listConfigs>>().toEqualTypeOf<ConfigListQueryInput>();
  });
});
