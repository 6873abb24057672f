/**
 * Validation of config text (docs/config.md): the validation report with every issue
 * positioned in the text. Never throws, whatever the text.
 */
import type { ValidationReport, ValidationSource } from '../../contract/validation';
import { parseConfig, type ParsedConfig } from '../parse';
import { IssueCollector } from './issue-collector';
import { checkSchemaRules } from './schema-rules';
import { checkSemanticRules } from './semantic-rules';
import type { ValidationContext } from './validation-context';

export type { ValidationContext } from './validation-context';

const DEFAULT_SOURCE: ValidationSource = { type: 'draft', name: '' };

/** Parses and validates config text; `context`: what is known of the account. */
export function validateConfigText(
  text: string,
  source: ValidationSource = DEFAULT_SOURCE,
  context: ValidationContext = {},
): ValidationReport {
  return validateParsedConfig(parseConfig(text), source, context);
}

/** Validates an already parsed config (the service caches parsed documents). */
export function validateParsedConfig(
  parsed: ParsedConfig,
  source: ValidationSource = DEFAULT_SOURCE,
  context: ValidationContext = {},
): ValidationReport {
  const issues = new IssueCollector(parsed);
  if (parsed.syntaxIssues.length > 0) {
    // A tree built around syntax errors is guesswork: report only what the parser says.
    parsed.syntaxIssues.forEach((issue) => issues.addIssue(issue));
  } else {
    try {
      checkSchemaRules(parsed.document, issues);
      checkSemanticRules(parsed.document, issues, undefined, context);
    } catch (error) {
      // A rule's bug must not cost the caller the report: say so at the top of the document.
      issues.addIssue({
        code: 'internal.validation_failed',
        severity: 'error',
        message: `Validation could not finish: ${error instanceof Error ? error.message : String(error)}`,
        path: '',
        line: 1,
        column: 1,
        length: 0,
      });
    }
  }
  return reportOf(parsed, issues, source);
}

/** The report of what the rules found. */
export function reportOf(
  parsed: ParsedConfig,
  issues: IssueCollector,
  source: ValidationSource,
): ValidationReport {
  const list = issues.issues();
  const errorCount = list.filter((issue) => issue.severity !== 'warning').length;
  return {
    valid: errorCount === 0,
    error_count: errorCount,
    warning_count: list.length - errorCount,
    issues: list,
    yaml: parsed.text,
    source,
  };
}
