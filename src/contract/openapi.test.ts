import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { API_BASE_PATH, contract } from './endpoints';
import { MAX_POINTER_LENGTH } from './limits';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi';

// What the server sends: the document after a JSON round trip.
const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as OpenApiDocument;
const operationOf = (name: keyof typeof contract) => {
  const endpoint = contract[name];
  const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
  if (!operation) throw new Error(`no operation ${name}`);
  return operation;
};

/** Every value of a `$ref` anywhere in a JSON value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

/** The value a local `#/...` reference points at. */
function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, token) =>
        node !== null && typeof node === 'object'
          ? (node as Record<string, unknown>)[token]
          : undefined,
      document,
    );
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
  });

  it('lists every endpoint of the contract, and nothing else', () => {
    const listed = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]) => `${operation.operationId} ${method} ${path}`,
      ),
    );
    const expected = Object.entries(contract).map(
      ([name, endpoint]) => `${name} ${endpoint.method.toLowerCase()} ${endpoint.path}`,
    );
    expect(listed.sort()).toEqual(expected.sort());
  });

  it('is served under /api/v1 and asks for a bearer token, except on public endpoints', () => {
    expect(document.servers).toEqual([{ url: API_BASE_PATH }]);
    expect(document.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
    });
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(operationOf('getHealth').security).toEqual([]);
    expect(operationOf('getOpenApiDocument').security).toEqual([]);
    expect(operationOf('getAuthStatus').security).toBeUndefined();
    expect(operationOf('getAuthStatus').responses).toHaveProperty('503');
    expect(operationOf('getConfig')['x-permission']).toBe('config:read');
  });

  it('states a permission that depends on the body case by case, never as one permission', () => {
    const review = operationOf('addReview');
    expect(review['x-permission']).toBeUndefined();
    expect(review['x-permission-by-body']).toEqual([
      { permission: 'config:read', when: 'a comment' },
      { permission: 'config:publish', when: 'a verdict (approve, request_changes)' },
    ]);
    expect(review.description).toContain('config:publish when a verdict');
    const edit = operationOf('editConfig');
    expect(edit['x-permission']).toBeUndefined();
    expect(edit['x-permission-by-body']?.map((entry) => entry.permission)).toEqual([
      'config:write',
      'config:publish',
    ]);
  });

  it('resolves every $ref, and its components carry no $schema or $id', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\//);
      expect(resolve(ref), ref).toBeDefined();
    }
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(schema, name).not.toHaveProperty('$schema');
      expect(schema, name).not.toHaveProperty('$id');
    }
  });

  it('names the shared schemas', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'AuthStatus',
        'ConfigEditRequest',
        'ConfigEditResult',
        'Operation',
        'CreateAppItem',
        'ValidationReport',
        'ValidationIssue',
        'Problem',
        'ProblemFieldError',
        'ConfigRecord',
        'ConfigSummary',
        'HistoryEntry',
        'ApiKey',
        'CreatedApiKey',
        'CreateApiKeyRequest',
        'Permission',
      ]),
    );
    expect(operationOf('editConfig').requestBody).toEqual({
      required: true,
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/ConfigEditRequest' } },
      },
    });
    expect(operationOf('publishConfig').requestBody?.required).toBe(false);
  });

  it('bounds the JSON Pointers of set and unset', () => {
    for (const name of ['SetItem', 'UnsetItem']) {
      const item = document.components.schemas[name] as {
        properties: { path: { maxLength?: number } };
      };
      expect(item.properties.path.maxLength, name).toBe(MAX_POINTER_LENGTH);
    }
  });

  it('sends problems as application/problem+json and successes as application/json', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const operation of Object.values(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const types = Object.keys(response.content ?? {});
          if (['204', '302', '304'].includes(status))
            expect(types, `${path} ${status}`).toEqual([]);
          else if (status === 'default' || Number(status) >= 400) {
            expect(types, `${path} ${status}`).toEqual(['application/problem+json']);
            expect(response.content?.['application/problem+json']?.schema).toEqual({
              $ref: '#/components/schemas/Problem',
            });
          } else if (path.endsWith('/stream')) {
            expect(types, `${path} ${status}`).toEqual(['text/event-stream']);
          } else if (path.endsWith('/export')) {
            expect(types, `${path} ${status}`).toEqual(['application/x-ndjson']);
          } else expect(types, `${path} ${status}`).toEqual(['application/json']);
        }
      }
    }
  });

  it('describes the stream of views as text/event-stream whose events carry a DeliveryView', () => {
    expect(operationOf('streamDeliveryView').responses['200']?.content).toEqual({
      'text/event-stream': {
        schema: {
          type: 'string',
          description: expect.stringContaining('Server-Sent Events'),
          contentMediaType: 'application/json',
          contentSchema: { $ref: '#/components/schemas/DeliveryView' },
        },
      },
    });
  });

  it('reads no API key on the delivery endpoints, and an API key on the client key ones', () => {
    for (const name of ['getDeliveryView', 'getAssignment', 'streamDeliveryView'] as const) {
      expect(operationOf(name).security, name).toEqual([]);
      expect(operationOf(name).responses['401'], name).toBeUndefined();
    }
    for (const name of ['listClientKeys', 'createClientKey', 'revokeClientKey'] as const) {
      expect(operationOf(name).security, name).toBeUndefined();
      expect(operationOf(name)['x-permission'], name).toBe('client_keys:manage');
    }
  });

  it('has If-None-Match and a 304 without a body on the GETs a client keeps', () => {
    for (const name of [
      'getDeliveryView',
      'getConfig',
      'getLiveConfig',
      'getConfigSchema',
      'getOpenApiDocument',
    ] as const) {
      const operation = operationOf(name);
      expect(operation.parameters, name).toContainEqual(
        expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
      );
      expect(operation.responses['304'], name).toEqual({
        description: expect.stringContaining('Not modified'),
        headers: { ETag: { $ref: '#/components/headers/ETag' } },
      });
    }
  });

  it('has If-Match on edit, ETag on config responses, Retry-After on 429 and 503, WWW-Authenticate on 401', () => {
    expect(operationOf('editConfig').parameters).toEqual([
      expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
    ]);
    for (const name of ['editConfig', 'getConfig', 'getLiveConfig', 'publishConfig'] as const) {
      const success = Object.entries(operationOf(name).responses).find(([status]) =>
        status.startsWith('2'),
      );
      expect(success?.[1].headers, name).toEqual({ ETag: { $ref: '#/components/headers/ETag' } });
    }
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        // The health probe is never rate limited.
        if (operation === operationOf('getHealth')) continue;
        expect(operation.responses['429']?.headers).toEqual({
          'Retry-After': { $ref: '#/components/headers/Retry-After' },
        });
        const unavailable = operation.responses['503'];
        if (unavailable)
          expect(unavailable.headers).toEqual({
            'Retry-After': { $ref: '#/components/headers/Retry-After' },
          });
        const unauthorized = operation.responses['401'];
        if (unauthorized) expect(unauthorized.headers).toHaveProperty('WWW-Authenticate');
      }
    }
  });

  it('describes path and query parameters', () => {
    expect(operationOf('getConfig').parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
      expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
    ]);
    expect(operationOf('listConfigs').parameters).toEqual([
      {
        name: 'kind',
        in: 'query',
        required: false,
        description: expect.any(String),
        schema: { $ref: '#/components/schemas/ConfigKind' },
      },
      expect.objectContaining({ name: 'review', in: 'query', required: false }),
      expect.objectContaining({ name: 'q', in: 'query', required: false }),
      expect.objectContaining({ name: 'limit', in: 'query', required: false }),
      expect.objectContaining({ name: 'cursor', in: 'query', required: false }),
    ]);
    expect(operationOf('listConfigs').responses['200']?.headers).toEqual({
      Link: { $ref: '#/components/headers/Link' },
    });
  });

  it('is the same on every build', () => {
    expect(buildOpenApiDocument()).toEqual(buildOpenApiDocument());
  });

  it('says what the zod schemas say (checked with a JSON Schema validator)', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(document, 'openapi.json');
    const validates = (name: string, value: unknown) => {
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${name}`);
      if (!validate) throw new Error(`no schema ${name}`);
      return validate(value);
    };
    expect(validates('AuthStatus', { idp_organization_id: 'org' })).toBe(true);
    expect(validates('AuthStatus', { email: 'a@b.c' })).toBe(false);
    const request = {
      summary: 'Add an app',
      operations: [{ create_app: [{ id: 'checkout', platform: 'desktop', extra: true }] }],
    };
    expect(validates('ConfigEditRequest', request)).toBe(true);
    expect(validates('ConfigEditRequest', { operations: [] })).toBe(false);
    expect(validates('ConfigEditRequest', { operations: [{}] })).toBe(false);
    expect(
      validates('ConfigEditRequest', {
        operations: [{ create_app: [{ id: 'a' }], set: [{ path: '', value: 1 }] }],
      }),
    ).toBe(false);
    expect(
      validates('ConfigEditRequest', { operations: [{ set: [{ path: 'x', value: 1 }] }] }),
    ).toBe(false);
    expect(
      validates('Problem', {
        type: 'urn:x',
        title: 't',
        status: 404,
        detail: 'd',
        code: 'not_found',
      }),
    ).toBe(true);
  });
});
