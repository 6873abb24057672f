/**
 * The permission each endpoint enforces is the one the OpenAPI document states: a key
 * without it gets 403 naming it, whether it is the endpoint's own or depends on the body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '../../contract/auth-status';
import { contract, type EndpointName } from '../../contract/endpoints';
import { buildOpenApiDocument, type OpenApiOperation } from '../../contract/openapi';
import { CREATE_APP, expectProblem, send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

const document = buildOpenApiDocument();
const operations = Object.values(document.paths).flatMap((methods) =>
  Object.values(methods as Record<string, OpenApiOperation>),
);

/** A body that needs each permission, for the endpoints whose permission depends on it. */
const BODIES: Readonly<Record<string, Partial<Record<Permission, unknown>>>> = {
  addReview: {
    'config:read': { verdict: 'comment', body: 'Looks right' },
    'config:publish': { verdict: 'approve' },
  },
  editConfig: {
    'config:write': { operations: [CREATE_APP('probe')], summary: 'Add an app' },
    'config:publish': { operations: [{ start_ab_test: [{ id: 'probe' }] }] },
  },
};

/** Every path parameter named `x`: a permission is refused before anything is looked up. */
function paramsOf(name: EndpointName): Record<string, string> {
  const names = [...contract[name].path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  return Object.fromEntries(names.map((param) => [param, 'x']));
}

let service: TestService;
const without = new Map<Permission, string>();
const only = new Map<Permission, string>();

beforeAll(async () => {
  service = await startTestService();
  for (const permission of PERMISSIONS) {
    without.set(
      permission,
      await service.keyFor('admin', { permissions: PERMISSIONS.filter((p) => p !== permission) }),
    );
    only.set(permission, await service.keyFor('admin', { permissions: [permission] }));
  }
});
afterAll(() => service.close());

function expectRefusedFor(response: Awaited<ReturnType<typeof send>>, permission: string): void {
  const problem = expectProblem(response, 403, 'forbidden');
  expect(problem.detail).toContain(permission);
  expect(response.headers['www-authenticate']).toContain(`scope="${permission}"`);
}

describe('the permission the OpenAPI document states is the one enforced', () => {
  const stated = operations.filter((operation) => operation['x-permission']);
  it.each(stated.map((operation) => [operation.operationId, operation['x-permission']]))(
    '%s refuses a key without %s',
    async (name, permission) => {
      const response = await send(
        service,
        without.get(permission as Permission),
        name as EndpointName,
        {
          params: paramsOf(name as EndpointName),
        },
      );
      expectRefusedFor(response, permission as string);
    },
  );

  const byBody = operations.flatMap((operation) =>
    (operation['x-permission-by-body'] ?? []).map(
      (entry) => [operation.operationId, entry.permission, entry.when] as const,
    ),
  );
  it('states a permission by body for the review and edit endpoints', () => {
    expect(new Set(byBody.map(([name]) => name))).toEqual(new Set(Object.keys(BODIES)));
  });

  it.each(byBody)('%s needs %s when %s', async (name, permission, _when) => {
    const payload = BODIES[name]?.[permission as Permission];
    expect(payload, `a body of ${name} that needs ${permission}`).toBeDefined();
    const input = { params: paramsOf(name as EndpointName), payload };
    const refused = await send(
      service,
      without.get(permission as Permission),
      name as EndpointName,
      input,
    );
    expectRefusedFor(refused, permission);
    // That permission alone is enough: the request goes on to what it names.
    const allowed = await send(
      service,
      only.get(permission as Permission),
      name as EndpointName,
      input,
    );
    expect(allowed.statusCode, allowed.body).not.toBe(403);
  });
});
