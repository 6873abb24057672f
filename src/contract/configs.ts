/**
 * Config records (docs/api.md): the list, one config with its text and report,
 * publish, history, and the health probe.
 */
import { described, wholeNumber, z } from './zod';
import { configKindSchema, MAX_SUMMARY_LENGTH } from './config-kind';
import { operationSchema } from './operations';
import { pagedQuerySchema } from './pages';
import { REVIEW_STATES, reviewStateSchema } from './reviews';
import { timestampSchema } from './timestamp';
import { validationReportSchema } from './validation';

/** `/configs/{id}` and its sub-resources. Config ids are never `live` (that is a route). */
export const configIdParamsSchema = z.object({
  id: described(z.string().check(z.minLength(1)), 'Config row id'),
});

/**
 * A config's ETag names its content: its id and revision, `"cfg_…:7"`. Ids are never
 * reused and each revision of a row is written once, so the pair names one text; the
 * revision alone would be shared by two configs (the live one before and after a publish).
 */
export function etagOf(id: string, revision: number, reviewStamp?: string): string {
  return reviewStamp === undefined ? `"${id}:${revision}"` : `"${id}:${revision}.${reviewStamp}"`;
}

/**
 * The ETag of a config record as GET answers it: its id and revision, and a stamp of every
 * field the pair does not fix (live, review, approvals required, published_at, …). The text
 * and its report belong to the revision; the rest changes without it (an activate, a review,
 * a policy change), and a cached copy must revalidate to it. If-Match ignores the stamp.
 */
export function recordEtagOf(record: {
  readonly id: string;
  readonly revision: number;
  readonly [field: string]: unknown;
}): string {
  const { yaml: _text, validation: _report, ...fields } = record;
  // FNV-1a, 32 bits: a short stamp that changes with the fields' JSON.
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(fields)) {
    hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  }
  return etagOf(record.id, record.revision, hash.toString(36));
}

/** An ETag this API sends: one quoted token (a config's id and revision, or a hash). */
export const ETAG_PATTERN = '^"[\\x21\\x23-\\x7e]+"$';

/**
 * What `If-Match` on an edit takes: a config's ETag, or `"<revision>"` alone. A record's
 * stamp after the revision (`"cfg_…:7.k3x9"`) is allowed and ignored.
 */
export const IF_MATCH_PATTERN =
  '^"(?:([\\x21\\x23-\\x39\\x3b-\\x7e]+):)?([1-9][0-9]*)(?:\\.[0-9a-z]+)?"$';

/** What an `If-Match` value names; null when it is not one of our config ETags. */
export function configOfEtag(etag: string): { id?: string; revision: number } | null {
  const match = new RegExp(IF_MATCH_PATTERN).exec(etag);
  if (!match) return null;
  const revision = Number(match[2]);
  return match[1] === undefined ? { revision } : { id: match[1], revision };
}

/** Request headers of `POST /config/edit`; Node and Fastify lower-case header names. */
export const ifMatchHeadersSchema = z.object({
  'if-match': described(
    z.optional(
      z
        .string()
        .check(
          z.regex(
            new RegExp(IF_MATCH_PATTERN),
            'must be an ETag of a config, e.g. "cfg_01J0:7", or a revision, e.g. "7"',
          ),
        ),
    ),
    'Apply only if the target is still this config at this revision (or, for "7", at this revision), else 412',
  ),
});

/**
 * Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 asks for
 * GET): a list of entity tags, each perhaps `W/`, or `*`.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  // What a client that kept the answer sends, as it came: no need to split it.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}

export const MAX_CONFIG_SEARCH_LENGTH = 100;
/** What `review` filters on: a review state, or the drafts waiting for the caller's verdict. */
export const CONFIG_REVIEW_FILTERS = [...REVIEW_STATES, 'waiting_for_me'] as const;
export type ConfigReviewFilter = (typeof CONFIG_REVIEW_FILTERS)[number];

/** `GET /configs?kind=&review=&q=`, a page at a time. */
export const configListQuerySchema = pagedQuerySchema({
  kind: described(z.optional(configKindSchema), 'Only configs of this kind'),
  review: described(
    z.optional(z.enum(CONFIG_REVIEW_FILTERS)),
    'Only drafts in this review state; waiting_for_me: drafts in review that the caller may approve (config:publish), did not ask for, and has not approved as they now are',
  ),
  q: described(
    z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CONFIG_SEARCH_LENGTH))),
    'Only configs whose label contains this text (any case)',
  ),
});
export type ConfigListQuery = z.infer<typeof configListQuerySchema>;
/** What a client sends (the limit may be a number or its text). */
export type ConfigListQueryInput = z.input<typeof configListQuerySchema>;

const recordFields = {
  id: z.string(),
  kind: configKindSchema,
  label: described(z.string(), 'Draft name or published version label'),
  revision: described(wholeNumber(1), 'Raised by every edit; the ETag'),
  live: described(z.boolean(), 'True for the one published config that is live'),
  base_config_id: described(
    z.nullable(z.string()),
    'The config this one was copied from; null for the first config of an account',
  ),
  created_at: described(timestampSchema(), 'When the row was created'),
  updated_at: described(timestampSchema(), 'When the row last changed'),
  published_at: described(
    z.optional(timestampSchema()),
    'When it was published; only on published configs',
  ),
  // Optional for clients of servers without review; this server always sends it.
  review: z.optional(reviewStateSchema),
};

export const configSummarySchema = z
  .object({
    ...recordFields,
    valid: z.boolean(),
    error_count: wholeNumber(0),
    warning_count: wholeNumber(0),
  })
  .register(z.globalRegistry, {
    id: 'ConfigSummary',
    description: 'One config in a list, without its text.',
  });
export type ConfigSummary = z.infer<typeof configSummarySchema>;

/** `GET /configs`: newest first. */
export const configListSchema = z
  .array(configSummarySchema)
  .register(z.globalRegistry, { id: 'ConfigList' });
export type ConfigList = z.infer<typeof configListSchema>;

export const configRecordSchema = z
  .object({
    ...recordFields,
    yaml: described(z.string(), 'The YAML text of the config'),
    validation: validationReportSchema,
    pending_schedules: described(
      z.optional(
        z.array(
          z.strictObject({
            id: z.string(),
            action: z.enum(['publish', 'ab_test']),
            at: timestampSchema(),
          }),
        ),
      ),
      'The changes scheduled on this config that have not run yet, soonest first (GET /schedules has them whole).',
    ),
  })
  .register(z.globalRegistry, {
    id: 'ConfigRecord',
    description: 'One config with its text and validation report.',
  });
export type ConfigRecord = z.infer<typeof configRecordSchema>;

/** `/configs/{id}/revisions/{revision}`: a revision as a path segment, 1 or more. */
export const configRevisionParamsSchema = z.object({
  ...configIdParamsSchema.shape,
  revision: z.string().check(z.regex(/^[1-9][0-9]{0,9}$/, 'a revision, 1 or more')),
});

export const configRevisionSchema = z
  .object({
    id: described(z.string(), 'Config row id'),
    revision: wholeNumber(1),
    yaml: z.string(),
  })
  .register(z.globalRegistry, {
    id: 'ConfigRevision',
    description: 'The text of one revision of a config.',
  });
export type ConfigRevision = z.infer<typeof configRevisionSchema>;

/** `POST /configs/{id}/publish`; the body may be omitted. */
export const publishRequestSchema = z
  .object({
    summary: described(
      z.optional(z.string().check(z.maxLength(MAX_SUMMARY_LENGTH))),
      "Label of the published version; default: the draft's label",
    ),
  })
  .register(z.globalRegistry, { id: 'PublishRequest' });

export const HISTORY_ACTIONS = [
  'create',
  'edit',
  'publish',
  'activate',
  'lifecycle',
  'review_request',
  'approve',
  'request_changes',
  'publish_on_approval',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export const historyEntrySchema = z
  .object({
    at: described(timestampSchema(), 'When it happened'),
    action: described(
      z.enum(HISTORY_ACTIONS),
      'create: the row was made by account set-up; edit: POST /config/edit on a draft; publish, activate: those endpoints; lifecycle: an A/B test lifecycle operation; review_request, approve, request_changes: steps of a review of the draft; publish_on_approval: the last approval published the draft',
    ),
    config_id: described(z.string(), 'The config row the entry changed or made'),
    revision: described(wholeNumber(1), "That row's revision afterwards"),
    summary: described(z.optional(z.string()), 'The request summary or version label'),
    api_key_id: described(z.optional(z.string()), 'Absent when the operator did it'),
    api_key_name: z.optional(z.string()),
    actor_email: described(z.optional(z.string()), "The key owner's e-mail address"),
    operations: described(
      z.array(operationSchema),
      'The operations applied; [] for publish and activate',
    ),
    applied_paths: z.array(z.string()),
  })
  .register(z.globalRegistry, {
    id: 'HistoryEntry',
    description: 'One change in the line of a config.',
  });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** `GET /configs/{id}/history`: the config and the configs it descends from, newest first. */
export const historyListSchema = z
  .array(historyEntrySchema)
  .register(z.globalRegistry, { id: 'HistoryList' });
export type HistoryList = z.infer<typeof historyListSchema>;

/** `GET /config/schema`: a JSON Schema (draft 2020-12) document, built in src/configs. */
export const jsonSchemaDocumentSchema = z
  .record(z.string(), z.unknown())
  .register(z.globalRegistry, {
    id: 'JsonSchemaDocument',
    description: 'A JSON Schema document (draft 2020-12).',
  });
