/**
 * The A/B test forms' values and rules: create (a new test in a draft), update (description,
 * and variants while the test is a draft), promote (the winner). Every lifecycle form also
 * takes an optional version label, the `summary` of the published version it produces.
 */
import { z } from '../../../contract/zod';
import type { ConfigContents } from '../../../configs';
import { AB_TEST_DESCRIPTION_MAX_LENGTH, ID_PATTERN } from '../../../contract/config-document';
import { MAX_SUMMARY_LENGTH } from '../../../contract/config-edit';
import { ID_HINT, variantRowsSchema, type VariantRow } from './variant-rows';

/** The create form's value for "a new draft from the live config". */
export const NEW_DRAFT = 'new-draft';

const summarySchema = z
  .string()
  .check(
    z.trim(),
    z.maxLength(MAX_SUMMARY_LENGTH, `Use at most ${MAX_SUMMARY_LENGTH} characters.`),
  );

const descriptionSchema = z
  .string()
  .check(
    z.maxLength(
      AB_TEST_DESCRIPTION_MAX_LENGTH,
      `Use at most ${AB_TEST_DESCRIPTION_MAX_LENGTH} characters.`,
    ),
  );

export interface CreateAbTestValues {
  /** NEW_DRAFT, or the id of the draft to add the test to. */
  target: string;
  id: string;
  app: string;
  description: string;
  variants: VariantRow[];
  /** The new draft's name (optional: the server names it after the test). */
  summary: string;
}

/**
 * The create form's rules; the test id must be free and the app must exist in the config
 * the test goes into, which `contentsOf` reads (null while it is not known).
 */
export function createAbTestSchema(contentsOf: (target: string) => ConfigContents | null) {
  return z
    .object({
      target: z.string().check(z.minLength(1, 'Choose where the test goes.')),
      id: z.string().check(z.trim(), z.regex(new RegExp(ID_PATTERN), ID_HINT)),
      app: z.string().check(z.minLength(1, 'Choose the app the test runs in.')),
      description: descriptionSchema,
      variants: variantRowsSchema,
      summary: summarySchema,
    })
    .check(
      z.superRefine((values, ctx) => {
        const contents = contentsOf(values.target);
        if (!contents) return;
        if (contents.abTests.some((test) => test.id === values.id.trim())) {
          ctx.addIssue({
            code: 'custom',
            path: ['id'],
            message: 'That config already has a test with this id.',
          });
        }
        if (values.app && !contents.apps.some((app) => app.id === values.app)) {
          ctx.addIssue({
            code: 'custom',
            path: ['app'],
            message: 'That config has no app with this id.',
          });
        }
      }),
    );
}

export interface UpdateAbTestValues {
  description: string;
  /** Only while the test is a draft; a running test keeps its variants. */
  variants: VariantRow[];
  summary: string;
}

export function updateAbTestSchema(variantsEditable: boolean) {
  return z.object({
    description: descriptionSchema,
    // A running test's variants are not sent, so they are not judged either.
    variants: variantsEditable ? variantRowsSchema : z.custom<VariantRow[]>(),
    summary: summarySchema,
  });
}

export interface PromoteAbTestValues {
  winner: string;
  summary: string;
}

export const promoteAbTestSchema = z.object({
  // No radio chosen reads as null.
  winner: z
    .string({ error: 'Choose the winning variant.' })
    .check(z.minLength(1, 'Choose the winning variant.')),
  summary: summarySchema,
});

export interface StepValues {
  summary: string;
}

export const stepSchema = z.object({ summary: summarySchema });
