/**
 * Every endpoint of the HTTP contract in one table, in the spirit of ts-rest: method, path,
 * permission, request schemas and responses by status. The service registers its routes
 * from it, the console calls them through it, and the OpenAPI document is generated from it.
 */
import { z } from './zod';
import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
} from './api-keys';
import { authStatusSchema, type Permission } from './auth-status';
import {
  configEditRequestSchema,
  configEditResultSchema,
  type ConfigEditRequest,
} from './config-edit';
import {
  configIdParamsSchema,
  ifNoneMatchHeadersSchema,
  configListQuerySchema,
  configListSchema,
  configRecordSchema,
  configRevisionParamsSchema,
  configRevisionSchema,
  healthSchema,
  historyListSchema,
  ifMatchHeadersSchema,
  jsonSchemaDocumentSchema,
  publishRequestSchema,
} from './configs';
import { actionKeyOf, isLifecycleAction, LIFECYCLE_ACTIONS, type Operation } from './operations';
import { pagedQuerySchema } from './pages';
import {
  auditExportQuerySchema,
  auditListSchema,
  auditQuerySchema,
  auditRecordSchema,
} from './audit';
import { deliveryEndpoints } from './delivery-endpoints';
import { endpoint, problems, type Endpoint } from './endpoint-kit';
import { webhookEndpoints } from './webhook-endpoints';
import { environmentEndpoints } from './environment-endpoints';
import { experimentEndpoints } from './experiment-endpoints';
import { peopleEndpoints } from './people-endpoints';
import { reviewEndpoints } from './review-endpoints';

export { permissionForReview } from './review-endpoints';

export {
  API_BASE_PATH,
  MAX_BODY_BYTES,
  MAX_CONFIG_YAML_BYTES,
  permissionOf,
  type BodyPermission,
  type Endpoint,
  type EndpointTag,
  type HttpMethod,
  type ProblemStatus,
} from './endpoint-kit';

export const contract = {
  getHealth: endpoint({
    method: 'GET',
    path: '/health',
    summary: 'Liveness probe',
    description:
      'Never rate limited: a flood from one address does not fail its probes. Always 200 while the process runs, so that an outage of the shared database does not take every instance out of a load balancer; the status is degraded while the database does not answer.',
    tag: 'meta',
    seed: false,
    auth: 'public',
    permission: null,
    responses: { 200: healthSchema },
  }),
  getOpenApiDocument: endpoint({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tag: 'meta',
    seed: false,
    auth: 'public',
    permission: null,
    headers: ifNoneMatchHeadersSchema,
    etag: true,
    responses: { 200: z.record(z.string(), z.unknown()), 304: null, ...problems(429) },
  }),
  getAuthStatus: endpoint({
    method: 'GET',
    path: '/auth/status',
    summary: 'Who the caller is and the state of their API key',
    tag: 'auth',
    seed: true,
    auth: 'signed_in',
    permission: null,
    personLevel: true,
    responses: { 200: authStatusSchema, ...problems(401, 429, 503) },
  }),
  editConfig: endpoint({
    method: 'POST',
    path: '/config/edit',
    summary: 'Apply typed edit operations to a config',
    description:
      'Ordinary operations land in a draft and need config:write; A/B test lifecycle operations publish their result and need config:publish. All operations apply or none does.',
    tag: 'configs',
    seed: true,
    auth: 'signed_in',
    permission: {
      cases: [
        { permission: 'config:write', when: 'the operations edit a draft' },
        {
          permission: 'config:publish',
          when: `an operation is an A/B test lifecycle action (${LIFECYCLE_ACTIONS.join(', ')})`,
        },
      ],
      of: (body: ConfigEditRequest) => permissionForEdit(body.operations),
    },
    headers: ifMatchHeadersSchema,
    body: configEditRequestSchema,
    bodyRequired: true,
    etag: true,
    responses: {
      200: configEditResultSchema,
      ...problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
    },
  }),
  listConfigs: endpoint({
    method: 'GET',
    path: '/configs',
    summary: "The account's configs, newest first",
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    paged: true,
    query: configListQuerySchema,
    responses: { 200: configListSchema, ...problems(400, 401, 403, 429, 503) },
  }),
  getLiveConfig: endpoint({
    method: 'GET',
    path: '/configs/live',
    summary: 'The live config',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    headers: ifNoneMatchHeadersSchema,
    etag: true,
    responses: { 200: configRecordSchema, 304: null, ...problems(401, 403, 404, 429, 503) },
  }),
  getConfig: endpoint({
    method: 'GET',
    path: '/configs/{id}',
    summary: 'One config with its YAML and validation report',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    params: configIdParamsSchema,
    headers: ifNoneMatchHeadersSchema,
    etag: true,
    responses: { 200: configRecordSchema, 304: null, ...problems(401, 403, 404, 429, 503) },
  }),
  publishConfig: endpoint({
    method: 'POST',
    path: '/configs/{id}/publish',
    summary: 'Publish a draft; the new published config becomes live',
    description:
      "The draft is consumed. Refused with 409 and the validation report when the draft is invalid, with 409 when the config is not a draft, and with 409 approval_required while the draft lacks the approvals the account's policy asks for.",
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:publish',
    params: configIdParamsSchema,
    body: publishRequestSchema,
    bodyRequired: false,
    etag: true,
    responses: {
      200: configRecordSchema,
      ...problems(400, 401, 403, 404, 409, 413, 415, 429, 503),
    },
  }),
  activateConfig: endpoint({
    method: 'POST',
    path: '/configs/{id}/activate',
    summary: 'Make an earlier published config live again (rollback)',
    description: 'Refused with 409 for a draft.',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:publish',
    params: configIdParamsSchema,
    etag: true,
    responses: { 200: configRecordSchema, ...problems(401, 403, 404, 409, 429, 503) },
  }),
  deleteConfig: endpoint({
    method: 'DELETE',
    path: '/configs/{id}',
    summary: 'Discard a draft',
    description: 'Refused with 409 for a published config.',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:write',
    params: configIdParamsSchema,
    responses: { 204: null, ...problems(401, 403, 404, 409, 429, 503) },
  }),
  getConfigHistory: endpoint({
    method: 'GET',
    path: '/configs/{id}/history',
    summary: 'The changes in the line of a config, newest first',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    params: configIdParamsSchema,
    paged: true,
    query: pagedQuerySchema({}),
    responses: { 200: historyListSchema, ...problems(400, 401, 403, 404, 429, 503) },
  }),
  getConfigRevision: endpoint({
    method: 'GET',
    path: '/configs/{id}/revisions/{revision}',
    summary: 'The text a config had at one of its revisions',
    description: 'Rebuilt from the history; 409 when an edit up to it has left it.',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    params: configRevisionParamsSchema,
    responses: { 200: configRevisionSchema, ...problems(400, 401, 403, 404, 409, 429, 503) },
  }),
  ...reviewEndpoints,
  getConfigSchema: endpoint({
    method: 'GET',
    path: '/config/schema',
    summary: 'The JSON Schema of a config document',
    tag: 'configs',
    seed: false,
    auth: 'signed_in',
    permission: 'config:read',
    headers: ifNoneMatchHeadersSchema,
    etag: true,
    responses: { 200: jsonSchemaDocumentSchema, 304: null, ...problems(401, 403, 429, 503) },
  }),
  listApiKeys: endpoint({
    method: 'GET',
    path: '/api-keys',
    summary: "The account's API keys, without secrets, newest first",
    tag: 'api-keys',
    seed: false,
    auth: 'signed_in',
    permission: 'api_keys:manage',
    paged: true,
    query: pagedQuerySchema({}),
    responses: { 200: apiKeyListSchema, ...problems(400, 401, 403, 429, 503) },
  }),
  createApiKey: endpoint({
    method: 'POST',
    path: '/api-keys',
    summary: "Create an API key for the caller's user; its secret is in this response only",
    description:
      "403 when the permissions asked for exceed the caller's role; 409 limit_reached when the caller's user already has 50 active keys.",
    tag: 'api-keys',
    seed: false,
    auth: 'signed_in',
    permission: 'api_keys:manage',
    body: createApiKeyRequestSchema,
    bodyRequired: true,
    responses: {
      201: createdApiKeySchema,
      ...problems(400, 401, 403, 409, 413, 415, 429, 503),
    },
  }),
  revokeApiKey: endpoint({
    method: 'DELETE',
    path: '/api-keys/{id}',
    summary: 'Revoke an API key; it fails from the next request on',
    description: 'A key may revoke itself. Revoking a revoked key returns it unchanged.',
    tag: 'api-keys',
    seed: false,
    auth: 'signed_in',
    permission: 'api_keys:manage',
    params: apiKeyIdParamsSchema,
    responses: { 200: apiKeySchema, ...problems(401, 403, 404, 429, 503) },
  }),
  getAudit: endpoint({
    method: 'GET',
    path: '/audit',
    summary: "The account's audit trail, newest first",
    description:
      'Every change (configs, publishes, keys, client keys, webhooks, the policy) with who made it and from where. Never a secret; webhook URLs kept to scheme and host.',
    tag: 'audit',
    seed: false,
    auth: 'signed_in',
    permission: 'audit:read',
    paged: true,
    query: auditQuerySchema,
    responses: { 200: auditListSchema, ...problems(400, 401, 403, 429, 503) },
  }),
  exportAudit: endpoint({
    method: 'GET',
    path: '/audit/export',
    summary: 'The audit trail between two instants as NDJSON, oldest first, for a SIEM',
    tag: 'audit',
    seed: false,
    auth: 'signed_in',
    permission: 'audit:read',
    query: auditExportQuerySchema,
    stream: 'application/x-ndjson',
    responses: { 200: auditRecordSchema, ...problems(400, 401, 403, 429, 503) },
  }),
  ...deliveryEndpoints,
  ...webhookEndpoints,
  ...peopleEndpoints,
  ...environmentEndpoints,
  ...experimentEndpoints,
} as const satisfies Record<string, Endpoint>;

export type Contract = typeof contract;
export type EndpointName = keyof Contract;
export const ENDPOINT_NAMES = Object.keys(contract) as EndpointName[];

type SchemaOr<T, Else> = T extends z.ZodMiniType ? T : Else;

/** What a client sends as the body of an endpoint (undefined: no body). */
export type RequestBodyOf<E extends Endpoint> = z.input<SchemaOr<E['body'], z.ZodMiniUndefined>>;
/** Path parameters of an endpoint. */
export type ParamsOf<E extends Endpoint> = z.input<
  SchemaOr<E['params'], z.ZodMiniObject<Record<never, never>>>
>;
/** Query parameters of an endpoint. */
export type QueryOf<E extends Endpoint> = z.input<
  SchemaOr<E['query'], z.ZodMiniObject<Record<never, never>>>
>;
/** The 2xx statuses of an endpoint, or the redirect a browser's sign-in answers with. */
export type SuccessStatusOf<E extends Endpoint> = Extract<
  keyof E['responses'],
  200 | 201 | 202 | 204 | 302
>;
/** The parsed body of one response (undefined for 204). */
export type ResponseBodyOf<
  E extends Endpoint,
  S extends keyof E['responses'] = SuccessStatusOf<E>,
> = E['responses'][S] extends z.ZodMiniType ? z.output<E['responses'][S]> : undefined;

/**
 * The permission an edit request needs: lifecycle operations publish, so they
 * need config:publish; every other operation edits a draft.
 */
export function permissionForEdit(operations: readonly Operation[]): Permission {
  return operations.some((operation) => isLifecycleAction(actionKeyOf(operation)))
    ? 'config:publish'
    : 'config:write';
}

/** `/configs/{id}` with `{id: 'a/b'}` -> `/configs/a%2Fb`; throws on a missing parameter. */
export function buildPath(path: string, params: Readonly<Record<string, string>> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path ${path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** `/configs/{id}` -> `/configs/:id`, the form Fastify routes take. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
