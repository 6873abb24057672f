/**
 * The audit trail (docs/api.md, Audit trail): every change, who made it, from where, on
 * what; read a page at a time or exported as NDJSON for a SIEM. Never a secret.
 */
import { pagedQuerySchema } from './pages';
import { timestampSchema } from './timestamp';
import { described, wholeNumber, z } from './zod';

export const AUDIT_EXPORT_CONTENT_TYPE = 'application/x-ndjson';
export const AUDIT_ACTOR_TYPES = ['key', 'person', 'system'] as const;

const actionFilter = described(
  z.optional(z.string().check(z.regex(/^[a-z_]+(\.[a-z_]*)?$/), z.maxLength(100))),
  'An action (config.publish), or a family of them ending in a dot (config.)',
);
const timeRange = {
  from: described(z.optional(timestampSchema()), 'From this instant on (included)'),
  to: described(z.optional(timestampSchema()), 'Before this instant'),
};

export const auditQuerySchema = pagedQuerySchema({
  actor: described(z.optional(z.string().check(z.maxLength(100))), 'Only what this key did'),
  action: actionFilter,
  target: described(
    z.optional(z.string().check(z.maxLength(100))),
    'Only changes to this (a config, key, client key, webhook… by its id)',
  ),
  ...timeRange,
});

export const auditExportQuerySchema = z.object({
  ...timeRange,
  action: actionFilter,
});

export const auditRecordSchema = z
  .object({
    id: described(wholeNumber(1), "The record's place in the trail: later records have larger ids"),
    at: timestampSchema(),
    actor: z.object({
      type: described(
        z.enum(AUDIT_ACTOR_TYPES),
        'key: an API key; person: someone signed in; system: the operator or the service',
      ),
      id: z.nullable(z.string()),
      name: described(z.optional(z.string()), "The key's name"),
      email: described(z.optional(z.string()), "The key owner's e-mail"),
    }),
    action: described(z.string(), 'What happened, e.g. config.publish, api_key.create'),
    target: z.nullable(
      z.object({
        type: described(z.string(), 'config, api_key, client_key, webhook, account, user…'),
        id: z.string(),
      }),
    ),
    ip: described(z.nullable(z.string()), 'The address the request came from'),
    detail: described(
      z.record(z.string(), z.unknown()),
      'What changed; never a secret, webhook URLs kept to scheme and host',
    ),
  })
  .register(z.globalRegistry, { id: 'AuditRecord', description: 'One entry of the audit trail.' });
export type AuditEntry = z.infer<typeof auditRecordSchema>;

export const auditListSchema = z
  .array(auditRecordSchema)
  .register(z.globalRegistry, { id: 'AuditList' });
