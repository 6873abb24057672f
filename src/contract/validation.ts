/**
 * The validation report (docs/config.md). This server always sends every field; clients
 * accept reports without `yaml`, `source`, or an issue's `severity`, which a server that
 * offers only the core endpoints may omit (docs/api.md).
 */
import { described, wholeNumber, z } from './zod';

export const SEVERITIES = ['error', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const validationIssueSchema = z
  .object({
    code: described(z.string(), 'Stable rule code, e.g. schema.enum'),
    message: z.string(),
    path: described(z.string(), 'JSON Pointer into the document; "" for the whole'),
    line: described(wholeNumber(1), '1-based line'),
    column: described(wholeNumber(1), '1-based column, in UTF-16 code units'),
    length: described(wholeNumber(0), 'UTF-16 code units from (line, column); may cross line ends'),
    severity: described(
      z.optional(z.enum(SEVERITIES)),
      'Always sent by this server; treat a missing severity as an error',
    ),
  })
  .register(z.globalRegistry, { id: 'ValidationIssue' });

export const validationSourceSchema = z
  .object({
    type: described(z.string(), 'The config kind: draft or published'),
    name: described(z.string(), "The config's label"),
  })
  .register(z.globalRegistry, { id: 'ValidationSource' });

export const validationReportSchema = z
  .object({
    valid: z.boolean(),
    error_count: wholeNumber(0),
    warning_count: wholeNumber(0),
    issues: z.array(validationIssueSchema),
    yaml: described(z.optional(z.string()), 'The exact text validated, with \\n line ends'),
    source: z.optional(validationSourceSchema),
  })
  .register(z.globalRegistry, { id: 'ValidationReport' });

export type ValidationIssue = z.infer<typeof validationIssueSchema>;
export type ValidationSource = z.infer<typeof validationSourceSchema>;
export type ValidationReport = z.infer<typeof validationReportSchema>;
