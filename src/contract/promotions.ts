/**
 * Promotion between the accounts of one organization (docs/environments.md): the request
 * naming the source, the target and the items, and the preview of what a promotion would
 * change. Creating the draft answers as `POST /config/edit` does.
 */
import { ID_PATTERN } from './config-document';
import { MAX_SUMMARY_LENGTH } from './config-kind';
import { operationSchema } from './operations';
import { described, wholeNumber, z } from './zod';

/** How many items one request may name. */
export const MAX_PROMOTION_ITEMS = 500;
/** The longest account or config id a promotion request may name. */
export const MAX_PROMOTION_ID_LENGTH = 200;

const accountId = (description: string) =>
  described(z.string().check(z.minLength(1), z.maxLength(MAX_PROMOTION_ID_LENGTH)), description);

// Chosen items name ids a config may hold; the answer repeats the ids the configs hold,
// which a draft source may spell in any way.
const chosenId = (what: string) =>
  described(
    z.string().check(z.regex(new RegExp(ID_PATTERN), 'must be an app or A/B test id')),
    `The id of ${what}.`,
  );

export const promotionItemSchema = z
  .union([
    z.strictObject({ app: chosenId('an app, promoted whole') }),
    z.strictObject({ ab_test: chosenId('an A/B test, whose definition is promoted') }),
  ])
  .register(z.globalRegistry, {
    id: 'PromotionItem',
    description: 'An app or an A/B test to promote, named by its id.',
  });
export type PromotionItemChoice = z.infer<typeof promotionItemSchema>;

const promotionRequestShape = {
  from_account: accountId('The account promoted from (the source).'),
  to_account: accountId('The account promoted to (the target); its live config is compared.'),
  from_config: described(
    z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_PROMOTION_ID_LENGTH))),
    "A config of the source account to promote from. Default: the source's live config.",
  ),
  items: described(
    z.optional(
      z
        .array(promotionItemSchema)
        .check(z.maxLength(MAX_PROMOTION_ITEMS, `at most ${MAX_PROMOTION_ITEMS} items a request`)),
    ),
    'The apps and tests to promote. Default: every app and test that differs. An item that differs in nothing, or exists on neither side, changes nothing.',
  ),
};

/** `POST /promotions/preview`. */
export const promotionPreviewRequestSchema = z
  .strictObject(promotionRequestShape)
  .register(z.globalRegistry, { id: 'PromotionPreviewRequest' });
export type PromotionPreviewRequest = z.infer<typeof promotionPreviewRequestSchema>;

/** `POST /promotions`: the preview's body and the draft's name. */
export const promotionRequestSchema = z
  .strictObject({
    ...promotionRequestShape,
    summary: described(
      z.string().check(z.minLength(1), z.maxLength(MAX_SUMMARY_LENGTH)),
      'The name of the draft created in the target.',
    ),
  })
  .register(z.globalRegistry, { id: 'PromotionRequest' });
export type PromotionRequest = z.infer<typeof promotionRequestSchema>;

const itemInAnswer = z
  .union([z.strictObject({ app: z.string() }), z.strictObject({ ab_test: z.string() })])
  .register(z.globalRegistry, {
    id: 'PromotedItem',
    description: 'An app or an A/B test, named by its id as the configs spell it.',
  });

export const promotionDifferenceSchema = z
  .object({
    item: itemInAnswer,
    path: described(
      z.string(),
      "A JSON Pointer within the item: /name, /settings/theme, /variants; '' for the whole item.",
    ),
    source: described(z.unknown(), "The source's value; null when the source has none."),
    target: described(z.unknown(), "The target's value; null when the target has none."),
  })
  .register(z.globalRegistry, {
    id: 'PromotionDifference',
    description:
      "One place where the source and the target differ. An A/B test's status, winner and dates are never compared.",
  });
export type PromotionDifferenceBody = z.infer<typeof promotionDifferenceSchema>;

export const notPromotableSchema = z
  .object({
    item: itemInAnswer,
    reason: described(z.string(), 'Why it cannot travel, in words.'),
  })
  .register(z.globalRegistry, {
    id: 'NotPromotable',
    description: 'An item that differs but that this promotion leaves as the target has it.',
  });
export type NotPromotableBody = z.infer<typeof notPromotableSchema>;

export const promotionPreviewSchema = z
  .object({
    from_account: z.string(),
    to_account: z.string(),
    from_config_id: described(z.string(), 'The source config compared.'),
    from_revision: described(wholeNumber(1), "The source config's revision compared."),
    to_config_id: described(z.string(), "The target's live config compared."),
    differences: z.array(promotionDifferenceSchema),
    operations: described(
      z.array(operationSchema),
      'The ordinary draft operations that make the promoted items of the target equal to the source; empty when nothing can travel.',
    ),
    not_promotable: z.array(notPromotableSchema),
  })
  .register(z.globalRegistry, {
    id: 'PromotionPreview',
    description: 'What promoting the items would change in the target, and what it cannot.',
  });
export type PromotionPreview = z.infer<typeof promotionPreviewSchema>;
