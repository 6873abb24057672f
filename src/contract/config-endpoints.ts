/** The contract table's config endpoints: the edit, lists, reads, publishing, history (docs/api.md). */
import type { Permission } from './auth-status';
import {
  configEditRequestSchema,
  configEditResultSchema,
  type ConfigEditRequest,
} from './config-edit';
import {
  configIdParamsSchema,
  configListQuerySchema,
  configListSchema,
  configRecordSchema,
  configRevisionParamsSchema,
  configRevisionSchema,
  historyListSchema,
  ifMatchHeadersSchema,
  jsonSchemaDocumentSchema,
  publishRequestSchema,
} from './configs';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';
import { actionKeyOf, isLifecycleAction, LIFECYCLE_ACTIONS, type Operation } from './operations';
import { pagedQuerySchema } from './pages';
import { ifNoneMatchHeadersSchema } from './request-headers';

/**
 * The permission an edit request needs: lifecycle operations publish, so they
 * need config:publish; every other operation edits a draft.
 */
export function permissionForEdit(operations: readonly Operation[]): Permission {
  return operations.some((operation) => isLifecycleAction(actionKeyOf(operation)))
    ? 'config:publish'
    : 'config:write';
}

export const configEndpoints = namedEndpoints({
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
});
