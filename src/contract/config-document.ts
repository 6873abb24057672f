/**
 * The shape of a config's data (docs/config.md), as constants and strict zod schemas.
 *
 * These describe a *valid* config: the console's forms and the typed operation builders use
 * them. The server does not reject requests with them: values in edit operations are written
 * as given and judged by validation (src/configs), so a person's mistake lands in the draft
 * and comes back as an issue with a marker.
 */
import { z } from './zod';

export const ID_PATTERN = '^[a-z][a-z0-9-]{0,62}$';
export const SETTING_KEY_PATTERN = '^[a-z][a-z0-9_]{0,62}$';
export const PLATFORMS = ['web', 'ios', 'android', 'server'] as const;
export const AB_TEST_STATUSES = ['draft', 'running', 'ended', 'promoted'] as const;
export const APP_NAME_MAX_LENGTH = 100;
export const AB_TEST_DESCRIPTION_MAX_LENGTH = 500;
export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 10;
export const WEIGHTS_TOTAL = 100;
/** How many metrics an A/B test names in each of its lists (goals, guardrails). */
export const MAX_TEST_METRICS = 10;

export type AbTestStatus = (typeof AB_TEST_STATUSES)[number];

export const configIdSchema = z
  .string()
  .check(z.regex(new RegExp(ID_PATTERN), 'must start with a lowercase letter; then a-z, 0-9 or -'));

export const settingValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export const settingsSchema = z.record(
  z.string().check(z.regex(new RegExp(SETTING_KEY_PATTERN), 'keys: a-z, 0-9 or _')),
  settingValueSchema,
);

export const appSchema = z
  .object({
    id: configIdSchema,
    name: z.string().check(z.minLength(1), z.maxLength(APP_NAME_MAX_LENGTH)),
    platform: z.enum(PLATFORMS),
    enabled: z.optional(z.boolean()),
    settings: z.optional(settingsSchema),
  })
  .register(z.globalRegistry, { id: 'App', description: 'An app this account provisions.' });

export const variantSchema = z
  .object({
    id: configIdSchema,
    weight: z.number().check(z.int(), z.minimum(0), z.maximum(WEIGHTS_TOTAL)),
    settings: z.optional(settingsSchema),
  })
  .register(z.globalRegistry, {
    id: 'Variant',
    description: "A variant of an A/B test: overrides of its app's settings.",
  });

export const abTestSchema = z
  .object({
    id: configIdSchema,
    app: configIdSchema,
    description: z.optional(z.string().check(z.maxLength(AB_TEST_DESCRIPTION_MAX_LENGTH))),
    status: z.enum(AB_TEST_STATUSES),
    variants: z.array(variantSchema).check(z.minLength(MIN_VARIANTS), z.maxLength(MAX_VARIANTS)),
    metrics: z.optional(z.array(configIdSchema).check(z.maxLength(MAX_TEST_METRICS))),
    guardrails: z.optional(z.array(configIdSchema).check(z.maxLength(MAX_TEST_METRICS))),
    winner: z.optional(z.string()),
    started_at: z.optional(z.string()),
    ended_at: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'AbTest', description: 'An A/B test of one app.' });

export type SettingValue = z.infer<typeof settingValueSchema>;
export type Settings = z.infer<typeof settingsSchema>;
export type App = z.infer<typeof appSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type AbTest = z.infer<typeof abTestSchema>;
