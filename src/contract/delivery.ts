/**
 * Delivery (docs/delivery.md): client keys, and what an app reads with one: its live view,
 * a unit's assignment, and the stream of new views. A client key is not a secret: apps
 * carry it in their code, and it grants only these reads, for its account and its apps.
 */
import { described, z } from './zod';
import { configIdSchema, settingValueSchema } from './config-document';
import { MAX_UNIT_ID_LENGTH } from './limits';
import { timestampSchema } from './timestamp';

export const CLIENT_KEY_PREFIX = 'ck_';
/** `ck_` and 24 base62 characters. */
export const CLIENT_KEY_PATTERN = /^ck_[0-9A-Za-z]{24}$/;
export const CLIENT_KEY_NAME_MAX_LENGTH = 100;
/** Apps one client key may be scoped to. */
export const CLIENT_KEY_MAX_APPS = 100;

export const clientKeyIdParamsSchema = z.object({
  id: described(z.string().check(z.minLength(1)), 'Client key id, e.g. ckey_01J…'),
});

export const clientKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: described(z.string().check(z.startsWith(CLIENT_KEY_PREFIX)), 'ck_ and 24 characters'),
    apps: described(
      z.nullable(z.array(z.string())),
      'The apps it reads; null: every app of the account',
    ),
    created_at: timestampSchema(),
    revoked_at: described(z.nullable(timestampSchema()), 'null: not revoked'),
  })
  .register(z.globalRegistry, {
    id: 'ClientKey',
    description: "A client key: apps' read-only access to their live view. Not a secret.",
  });
export type ClientKey = z.infer<typeof clientKeySchema>;

export const clientKeyListSchema = z
  .array(clientKeySchema)
  .register(z.globalRegistry, { id: 'ClientKeyList' });

export const createClientKeyRequestSchema = z
  .object({
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(CLIENT_KEY_NAME_MAX_LENGTH)),
    apps: described(
      z.optional(
        z.array(configIdSchema).check(
          z.minLength(1),
          z.maxLength(CLIENT_KEY_MAX_APPS),
          z.refine((list) => new Set(list).size === list.length, 'each app at most once'),
        ),
      ),
      'Default: every app of the account, those added later included',
    ),
  })
  .register(z.globalRegistry, { id: 'CreateClientKeyRequest' });
export type CreateClientKeyRequest = z.infer<typeof createClientKeyRequestSchema>;

/** `/delivery/{client_key}/…`: an unknown key, app or scope is a 404, whatever it looks like. */
export const deliveryAppParamsSchema = z.object({
  client_key: z.string(),
  app_id: z.string(),
});
export const deliveryKeyParamsSchema = z.object({ client_key: z.string() });

export const assignmentQuerySchema = z.object({
  unit: described(
    z.string().check(z.minLength(1), z.maxLength(MAX_UNIT_ID_LENGTH)),
    `The unit (a user, a device): any id of 1–${MAX_UNIT_ID_LENGTH} characters`,
  ),
});

export const streamQuerySchema = z.object({
  app: described(z.string().check(z.minLength(1)), 'The app whose view the stream sends'),
});

const deliverySettingsSchema = z.record(z.string(), settingValueSchema);

export const deliveryViewSchema = z
  .object({
    app: z.object({
      id: z.string(),
      name: z.string(),
      platform: z.string(),
      enabled: z.boolean(),
      settings: deliverySettingsSchema,
    }),
    ab_tests: described(
      z.array(
        z.object({
          id: z.string(),
          status: z.string(),
          variants: z.array(
            z.object({ id: z.string(), weight: z.number(), settings: deliverySettingsSchema }),
          ),
        }),
      ),
      'The running tests of the app, in config order',
    ),
    config: z.object({
      id: z.string(),
      revision: z.number(),
      published_at: timestampSchema(),
    }),
  })
  .register(z.globalRegistry, {
    id: 'DeliveryView',
    description: "An app's live view: its settings and its running A/B tests.",
  });
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

export const assignmentSchema = z
  .object({
    unit: z.string(),
    settings: deliverySettingsSchema,
    tests: described(
      z.array(z.object({ id: z.string(), variant: z.string() })),
      'The variant the unit gets in each running test',
    ),
  })
  .register(z.globalRegistry, {
    id: 'Assignment',
    description: "What one unit gets: the app's settings with its variants laid over them.",
  });
export type AssignmentResult = z.infer<typeof assignmentSchema>;

/** The SSE event that carries a view; its `id:` is `<config id>:<revision>`. */
export const DELIVERY_EVENT_NAME = 'app';
