/** `POST /config/edit`: operations in, the edited config's summary, report and ranges out. */
import { described, wholeNumber, z } from './zod';
import { configKindSchema, MAX_SUMMARY_LENGTH } from './config-kind';
import { configSummarySchema } from './configs';
import {
  actionKeyOf,
  isLifecycleAction,
  itemsOf,
  operationSchema,
  SUMMARY_OPTIONAL_ACTIONS,
  type Operation,
} from './operations';
import { validationReportSchema } from './validation';

/** How much one request may ask for. */
export const MAX_OPERATIONS = 1_000;
export const MAX_ITEMS = 10_000;
export { configKindSchema, MAX_SUMMARY_LENGTH, type ConfigKind } from './config-kind';

const requestShape = z.object({
  operations: z
    .array(operationSchema)
    .check(
      z.minLength(1, 'operations needs at least 1 operation'),
      z.maxLength(MAX_OPERATIONS, `at most ${MAX_OPERATIONS} operations a request`),
    ),
  config_id: described(
    z.optional(z.string().check(z.minLength(1))),
    'Config row id to edit. Default: the current live config.',
  ),
  summary: described(
    z.optional(z.string().check(z.maxLength(MAX_SUMMARY_LENGTH))),
    'Draft name or edit summary. Required for ordinary draft edits; optional for A/B test operations, where it labels the version.',
  ),
  base_revision: described(
    z.optional(wholeNumber(1)),
    "The target's revision the operations were made on. When the config has moved on, the operations apply to its current revision unless they touch what the edits since touched (409 edit_conflict). Not together with If-Match.",
  ),
});

export const configEditRequestSchema = requestShape
  .check(
    z.superRefine((request, ctx) => {
      // These rules span the request. zod runs this refinement even after an operation was
      // refused (a refinement's issue does not abort its parents), so first make sure every
      // operation has one action key holding an array; if not, its own issue says why.
      const wellFormed = request.operations.every((operation) => {
        const values = Object.values(operation);
        return values.length === 1 && Array.isArray(values[0]);
      });
      if (!wellFormed) return;
      const operations = request.operations as Operation[];
      const totalItems = operations.reduce((sum, op) => sum + itemsOf(op).length, 0);
      if (totalItems > MAX_ITEMS) {
        ctx.addIssue({
          code: 'custom',
          path: ['operations'],
          message: `at most ${MAX_ITEMS} items in all; got ${totalItems}`,
        });
      }
      const keys = operations.map(actionKeyOf);
      const textEdits = keys.flatMap((key, index) => (key === 'edit_text' ? [index] : []));
      if (textEdits.length > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['operations', textEdits[1] as number],
          message: 'an edit holds at most one edit_text operation',
        });
      }
      const lifecycle = keys.filter(isLifecycleAction);
      if (lifecycle.length > 0 && lifecycle.length < keys.length) {
        const first = keys.findIndex((key) => !isLifecycleAction(key));
        ctx.addIssue({
          code: 'custom',
          path: ['operations', first],
          message: `A/B test lifecycle operations (${lifecycle[0]}) cannot be mixed with other operations in one request`,
        });
      }
      const needsSummary = keys.some(
        (key) =>
          !isLifecycleAction(key) && !(SUMMARY_OPTIONAL_ACTIONS as readonly string[]).includes(key),
      );
      if (needsSummary && !request.summary?.trim()) {
        ctx.addIssue({
          code: 'custom',
          path: ['summary'],
          message: 'summary is required for draft edits: say what the edit does',
        });
      }
    }),
  )
  .register(z.globalRegistry, { id: 'ConfigEditRequest' });

export type ConfigEditRequest = Omit<z.infer<typeof requestShape>, 'operations'> & {
  operations: Operation[];
};

/** Where an applied path's node sits in the saved text, as validation issues are placed. */
export const appliedRangeSchema = z
  .object({
    path: described(z.string(), 'The applied path (JSON Pointer)'),
    line: described(wholeNumber(1), '1-based line'),
    column: described(wholeNumber(1), '1-based column, in UTF-16 code units'),
    length: described(wholeNumber(0), 'UTF-16 code units from (line, column); may cross line ends'),
  })
  .register(z.globalRegistry, { id: 'AppliedRange' });
export type AppliedRange = z.infer<typeof appliedRangeSchema>;

export const configEditResultSchema = z
  .object({
    id: described(z.string(), 'Id of the config holding the edited config'),
    account_id: z.string(),
    // A copy (classic zod's .meta()): the description is this field's, the id stays ConfigKind.
    kind: described(
      configKindSchema.clone(),
      'draft for ordinary edits; published for A/B test lifecycle results',
    ),
    created: described(z.boolean(), 'True when a new config row was created'),
    base_config_id: described(z.string(), 'Id of the config that was edited or copied'),
    applied_paths: z.array(z.string()),
    applied_ranges: described(
      z.array(appliedRangeSchema),
      'Where each applied path that still names a node sits in validation.yaml; paths of what the edit removed are left out',
    ),
    config: described(
      configSummarySchema.clone(),
      'The edited or created config as GET /configs lists it after the edit',
    ),
    validation: validationReportSchema,
    revision: described(
      z.optional(wholeNumber(1)),
      "The config's revision after the edit (also the ETag)",
    ),
    merged_revisions: described(
      z.array(wholeNumber(1)),
      'The revisions made since base_revision that this edit was merged with, oldest first; empty when nothing had to merge',
    ),
    text_rebased: described(
      z.optional(z.boolean()),
      'Only for a merged edit with edit_text: true when the typed text was carried over the newer edits, false when its changes met theirs and the service wrote the text itself',
    ),
  })
  .register(z.globalRegistry, { id: 'ConfigEditResult' });

export type ConfigEditResult = z.infer<typeof configEditResultSchema>;
