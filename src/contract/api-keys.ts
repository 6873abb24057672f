/**
 * API keys (docs/api.md). A key's secret appears in exactly one response, the one that
 * creates it: `apiKeySchema` has no field for it, so a list or a status cannot leak it.
 */
import { described, z } from './zod';
import { permissionSchema } from './auth-status';
import { timestampSchema } from './timestamp';

export const API_KEY_PREFIX = 'sk_';
export const API_KEY_NAME_MAX_LENGTH = 100;
export const API_KEY_MAX_EXPIRES_IN_DAYS = 3_650;

export const apiKeyIdParamsSchema = z.object({
  id: described(z.string().check(z.minLength(1)), 'API key id, e.g. key_01J…'),
});

/** A timestamp that may be null, and what null means. */
const timestampOrNull = (description: string) =>
  described(z.nullable(timestampSchema()), description);

/** A key's fields; the created key adds its secret. */
const apiKeyFields = {
  id: z.string(),
  name: z.string(),
  obfuscated_value: described(z.string(), 'sk_… and the last 4 characters'),
  permissions: z.array(permissionSchema),
  created_at: timestampSchema(),
  last_used_at: timestampOrNull('null: never used'),
  expires_at: timestampOrNull('null: never expires'),
  revoked_at: timestampOrNull('null: not revoked'),
};

export const apiKeySchema = z
  .object(apiKeyFields)
  .register(z.globalRegistry, { id: 'ApiKey', description: 'An API key, without its secret.' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z
  .array(apiKeySchema)
  .register(z.globalRegistry, { id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const createApiKeyRequestSchema = z
  .object({
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(API_KEY_NAME_MAX_LENGTH)),
    permissions: described(
      z.optional(
        z.array(permissionSchema).check(
          z.minLength(1),
          z.refine((list) => new Set(list).size === list.length, 'each permission at most once'),
        ),
      ),
      "Default: every permission of the caller's role; never more than the role allows (403)",
    ),
    expires_in_days: described(
      z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(API_KEY_MAX_EXPIRES_IN_DAYS))),
      'Default: the key never expires',
    ),
  })
  .register(z.globalRegistry, { id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

export const createdApiKeySchema = z
  .object({
    ...apiKeyFields,
    secret: described(
      z.string().check(z.startsWith(API_KEY_PREFIX)),
      'The key itself; shown in this response only, never again',
    ),
  })
  .register(z.globalRegistry, {
    id: 'CreatedApiKey',
    description: 'A new API key with its secret, shown once.',
  });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
