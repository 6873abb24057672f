/**
 * API keys (api.md §1, §5). A key's secret appears in exactly one response, the one that
 * creates it: `apiKeySchema` has no field for it, so a list or a status cannot leak it.
 */
import { z } from 'zod';
import { permissionSchema } from './auth-status';
import { timestampSchema } from './timestamp';

export const API_KEY_PREFIX = 'sk_';
export const API_KEY_NAME_MAX_LENGTH = 100;
export const API_KEY_MAX_EXPIRES_IN_DAYS = 3_650;

export const apiKeyIdParamsSchema = z.object({
  id: z.string().min(1).meta({ description: 'API key id, e.g. key_01J…' }),
});
export type ApiKeyIdParams = z.infer<typeof apiKeyIdParamsSchema>;

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    obfuscated_value: z.string().meta({ description: 'sk_… and the last 4 characters' }),
    permissions: z.array(permissionSchema),
    created_at: timestampSchema(),
    last_used_at: timestampSchema().nullable().meta({ description: 'null: never used' }),
    expires_at: timestampSchema().nullable().meta({ description: 'null: never expires' }),
    revoked_at: timestampSchema().nullable().meta({ description: 'null: not revoked' }),
  })
  .meta({ id: 'ApiKey', description: 'An API key, without its secret.' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.array(apiKeySchema).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const createApiKeyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(API_KEY_NAME_MAX_LENGTH),
    permissions: z
      .array(permissionSchema)
      .min(1)
      .refine((list) => new Set(list).size === list.length, 'each permission at most once')
      .optional()
      .meta({
        description:
          "Default: every permission of the caller's role; never more than the role allows (403)",
      }),
    expires_in_days: z.number().int().min(1).max(API_KEY_MAX_EXPIRES_IN_DAYS).optional().meta({
      description: 'Default: the key never expires',
    }),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

export const createdApiKeySchema = apiKeySchema
  .extend({
    secret: z.string().startsWith(API_KEY_PREFIX).meta({
      description: 'The key itself; shown in this response only, never again',
    }),
  })
  .meta({ id: 'CreatedApiKey', description: 'A new API key with its secret, shown once.' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
