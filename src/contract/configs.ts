/**
 * Config records beyond the seed (api.md §5): the list, one config with its text and report,
 * publish, history, and the health probe.
 */
import { z } from 'zod';
import { configKindSchema, MAX_SUMMARY_LENGTH } from './config-edit';
import { operationSchema } from './operations';
import { timestampSchema } from './timestamp';
import { validationReportSchema } from './validation';

/** `/configs/{id}` and its sub-resources. Config ids are never `live` (that is a route). */
export const configIdParamsSchema = z.object({
  id: z.string().min(1).meta({ description: 'Config row id' }),
});
export type ConfigIdParams = z.infer<typeof configIdParamsSchema>;

/** A config's ETag is its revision as a strong entity tag: `"7"` (api.md §3). */
export const ETAG_PATTERN = '^"[1-9][0-9]*"$';

export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/** The revision an `If-Match` value names; null when it is not one of our ETags. */
export function revisionOfEtag(etag: string): number | null {
  return new RegExp(ETAG_PATTERN).test(etag) ? Number(etag.slice(1, -1)) : null;
}

/** Request headers of `POST /config/edit`; Node and Fastify lower-case header names. */
export const ifMatchHeadersSchema = z.object({
  'if-match': z
    .string()
    .regex(new RegExp(ETAG_PATTERN), 'must be an ETag of this API, e.g. "7"')
    .optional()
    .meta({ description: 'Apply only if the target config is still at this revision, else 412' }),
});
export type IfMatchHeaders = z.infer<typeof ifMatchHeadersSchema>;

/** `GET /configs?kind=draft|published`. */
export const configListQuerySchema = z.object({
  kind: configKindSchema.optional().meta({ description: 'Only configs of this kind' }),
});
export type ConfigListQuery = z.infer<typeof configListQuerySchema>;

const recordFields = {
  id: z.string(),
  kind: configKindSchema,
  label: z.string().meta({ description: 'Draft name or published version label' }),
  revision: z.number().int().min(1).meta({ description: 'Raised by every edit; the ETag' }),
  live: z.boolean().meta({ description: 'True for the one published config that is live' }),
  base_config_id: z.string().nullable().meta({
    description: 'The config this one was copied from; null for the first config of an account',
  }),
  created_at: timestampSchema().meta({ description: 'When the row was created' }),
  updated_at: timestampSchema().meta({ description: 'When the row last changed' }),
  published_at: timestampSchema()
    .optional()
    .meta({ description: 'When it was published; only on published configs' }),
};

export const configSummarySchema = z
  .object({
    ...recordFields,
    valid: z.boolean(),
    error_count: z.number().int().min(0),
    warning_count: z.number().int().min(0),
  })
  .meta({ id: 'ConfigSummary', description: 'One config in a list, without its text.' });
export type ConfigSummary = z.infer<typeof configSummarySchema>;

/** `GET /configs`: newest first. */
export const configListSchema = z.array(configSummarySchema).meta({ id: 'ConfigList' });
export type ConfigList = z.infer<typeof configListSchema>;

export const configRecordSchema = z
  .object({
    ...recordFields,
    yaml: z.string().meta({ description: 'The YAML text of the config' }),
    validation: validationReportSchema,
  })
  .meta({ id: 'ConfigRecord', description: 'One config with its text and validation report.' });
export type ConfigRecord = z.infer<typeof configRecordSchema>;

/** `POST /configs/{id}/publish`; the body may be omitted. */
export const publishRequestSchema = z
  .object({
    summary: z.string().max(MAX_SUMMARY_LENGTH).optional().meta({
      description: "Label of the published version; default: the draft's label",
    }),
  })
  .meta({ id: 'PublishRequest' });
export type PublishRequest = z.infer<typeof publishRequestSchema>;

export const HISTORY_ACTIONS = ['create', 'edit', 'publish', 'activate', 'lifecycle'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export const historyEntrySchema = z
  .object({
    at: timestampSchema().meta({ description: 'When it happened' }),
    action: z.enum(HISTORY_ACTIONS).meta({
      description:
        'create: the row was made by account set-up; edit: POST /config/edit on a draft; publish, activate: those endpoints; lifecycle: an A/B test lifecycle operation',
    }),
    config_id: z.string().meta({ description: 'The config row the entry changed or made' }),
    revision: z.number().int().min(1).meta({ description: "That row's revision afterwards" }),
    summary: z.string().optional().meta({ description: 'The request summary or version label' }),
    api_key_id: z.string().optional().meta({ description: 'Absent when the operator did it' }),
    api_key_name: z.string().optional(),
    actor_email: z.string().optional().meta({ description: "The key owner's e-mail address" }),
    operations: z
      .array(operationSchema)
      .meta({ description: 'The operations applied; [] for publish and activate' }),
    applied_paths: z.array(z.string()),
  })
  .meta({ id: 'HistoryEntry', description: 'One change in the line of a config.' });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** `GET /configs/{id}/history`: the config and the configs it descends from, newest first. */
export const historyListSchema = z.array(historyEntrySchema).meta({ id: 'HistoryList' });
export type HistoryList = z.infer<typeof historyListSchema>;

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export type Health = z.infer<typeof healthSchema>;

/** `GET /config/schema`: a JSON Schema (draft 2020-12) document, built in src/configs. */
export const jsonSchemaDocumentSchema = z
  .record(z.string(), z.unknown())
  .meta({ id: 'JsonSchemaDocument', description: 'A JSON Schema document (draft 2020-12).' });
export type JsonSchemaDocument = z.infer<typeof jsonSchemaDocumentSchema>;
