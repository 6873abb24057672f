/** The contract table's audit trail endpoints (docs/api.md, Audit trail). */
import {
  auditExportQuerySchema,
  auditListSchema,
  auditQuerySchema,
  auditRecordSchema,
} from './audit';
import { endpoint, namedEndpoints, problems } from './endpoint-kit';

export const auditEndpoints = namedEndpoints({
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
});
