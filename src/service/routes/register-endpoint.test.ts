/**
 * The success responses serialized by a serializer compiled from the contract's zod schema
 * (register-endpoint.ts): the text is what JSON.stringify wrote before, it parses with the
 * contract's schema, and the serializer is compiled only where it pays.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from '../../contract/zod';
import { configJsonSchema } from '../../configs/config-schema';
import { authStatusSchema } from '../../contract/auth-status';
import { contract } from '../../contract/endpoints';
import { buildOpenApiDocument } from '../../contract/openapi';
import { hashSecret } from '../domain/api-key-secrets';
import { ownsOrganization } from '../domain/environments';
import { send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';
import { authStatusOf } from './auth-routes';
import { compiledResponseSchema } from './register-endpoint';

let service: TestService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('the compiled success serializer', () => {
  it('writes GET /auth/status exactly as JSON.stringify did, with and without expires_at', async () => {
    service = await startTestService();
    const expiring = await service.keyFor('editor', { expiresInDays: 30 });
    for (const key of [service.adminKey, expiring]) {
      const principal = await service.store.findPrincipalByKeyHash(hashSecret(key));
      if (!principal) throw new Error('the key was not found');
      const owner = await ownsOrganization(service.store, principal);
      const response = await send(service, key, 'getAuthStatus');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe(JSON.stringify(authStatusOf(principal, owner)));
      expect(z.strictObject(authStatusSchema.shape).parse(response.json())).toEqual(
        authStatusOf(principal, owner),
      );
    }
  });

  it('writes the generated documents exactly as JSON.stringify did', async () => {
    service = await startTestService();
    const openApi = await send(service, undefined, 'getOpenApiDocument');
    expect(openApi.body).toBe(JSON.stringify(buildOpenApiDocument()));
    const schema = await send(service, service.adminKey, 'getConfigSchema');
    expect(schema.body).toBe(JSON.stringify(configJsonSchema));
    const health = await send(service, undefined, 'getHealth');
    expect(health.body).toBe('{"status":"ok"}');
  });

  it('is compiled from the contract for GET /auth/status, and not for a union', () => {
    const compiled = compiledResponseSchema(contract.getAuthStatus.responses[200]);
    expect(compiled).toMatchObject({
      definitions: { AuthStatus: { additionalProperties: false } },
    });
    const operation = z.union([z.object({ create: z.string() }), z.object({ remove: z.string() })]);
    expect(compiledResponseSchema(z.object({ operations: z.array(operation) }))).toBeUndefined();
  });

  it('leaves out what the contract does not name, and refuses a response without a required field', async () => {
    service = await startTestService();
    const schema = compiledResponseSchema(authStatusSchema);
    if (!schema) throw new Error('no compiled schema');
    // The same compilation as the route's (Fastify's fast-json-stringify), on a route of its own.
    service.app.get('/api/v1/test-extra', { schema: { response: { 200: schema } } }, async () => ({
      idp_organization_id: 'org_1',
      key_hash: 'must not be sent',
    }));
    service.app.get(
      '/api/v1/test-missing',
      { schema: { response: { 200: schema } } },
      async () => ({
        email: 'a@example.com',
      }),
    );
    const extra = await service.call(undefined, { method: 'GET', url: '/api/v1/test-extra' });
    expect(extra.json()).toEqual({ idp_organization_id: 'org_1' });
    const missing = await service.call(undefined, { method: 'GET', url: '/api/v1/test-missing' });
    expect(missing.statusCode).toBe(500);
    expect(missing.body).not.toContain('a@example.com');
  });
});
