/**
 * The validation report (seed 2.4, config.md §2). The seed does not say which fields are
 * required; this server always sends every field, and clients accept reports without
 * `yaml`, `source`, or an issue's `severity` (a seed-only server may omit them).
 */
import { z } from 'zod';

export const SEVERITIES = ['error', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const validationIssueSchema = z
  .object({
    code: z.string().meta({ description: 'Stable rule code, e.g. schema.enum' }),
    message: z.string(),
    path: z.string().meta({ description: 'JSON Pointer into the document; "" for the whole' }),
    line: z.number().int().min(1).meta({ description: '1-based line' }),
    column: z.number().int().min(1).meta({ description: '1-based column, in UTF-16 code units' }),
    length: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'UTF-16 code units from (line, column); may cross line ends' }),
    severity: z.enum(SEVERITIES).optional().meta({
      description: 'Beyond the seed; treat a missing severity as an error',
    }),
  })
  .meta({ id: 'ValidationIssue' });

export const validationSourceSchema = z
  .object({
    type: z.string().meta({ description: 'The config kind: draft or published' }),
    name: z.string().meta({ description: "The config's label" }),
  })
  .meta({ id: 'ValidationSource' });

export const validationReportSchema = z
  .object({
    valid: z.boolean(),
    error_count: z.number().int().min(0),
    warning_count: z.number().int().min(0),
    issues: z.array(validationIssueSchema),
    yaml: z
      .string()
      .optional()
      .meta({ description: 'The exact text validated, with \\n line ends' }),
    source: validationSourceSchema.optional(),
  })
  .meta({ id: 'ValidationReport' });

export type ValidationIssue = z.infer<typeof validationIssueSchema>;
export type ValidationSource = z.infer<typeof validationSourceSchema>;
export type ValidationReport = z.infer<typeof validationReportSchema>;
