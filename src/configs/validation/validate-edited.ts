/**
 * The edit's validation: what the rules found in each list item is kept by item node, and
 * taken again for the items an edit left unchanged; the report is the whole validation's.
 */
import { isMap } from 'yaml';
import type { Severity, ValidationReport, ValidationSource } from '../../contract/validation';
import type { ParsedConfig } from '../parse';
import { mayHoldAnchors, sourceRange } from '../yaml-tree';
import {
  IssueCollector,
  issueIdentity,
  type AddIssue,
  type IssueRange,
  type IssueSink,
} from './issue-collector';
import { checkSchemaRules } from './schema-rules';
import { checkSemanticRules, summarizeApp, type AppSummary } from './semantic-rules';
import { reportOf, validateParsedConfig } from './validate';
import type { ValidationContext } from './validation-context';

interface ItemIssue {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly path: string;
  /** Offsets from the item's start. */
  readonly range: IssueRange | undefined;
}

/** What was found in one item of a top-level list. */
export interface ItemFindings {
  readonly list: string;
  readonly index: number;
  /** The item's length in the text: a check that it is the text it was. */
  readonly length: number;
  readonly issues: readonly ItemIssue[];
  readonly summary: AppSummary | undefined;
}

/** What was found in each list item of a validated config, by item node. */
export type ItemFindingsByNode = ReadonlyMap<unknown, ItemFindings>;

export interface EditedValidation {
  readonly report: ValidationReport;
  /** For the next edit's validation; undefined when the whole validation ran alone. */
  readonly findings: ItemFindingsByNode | undefined;
  /** How many items' findings were taken again from `previous`. */
  readonly kept: number;
}

/**
 * `validateParsedConfig(parsed, source, context)`, taking again what `previous` (the
 * findings of the config before the edit) holds for the items that are the same node at the
 * same index with the same length. Pass `previous` only when every reused item is known
 * unchanged (`EditedParse.reusedItemsUnchanged`). What is kept depends on the item alone,
 * never on `context`.
 */
export function validateEdited(
  parsed: ParsedConfig,
  source: ValidationSource = { type: 'draft', name: '' },
  previous?: ItemFindingsByNode,
  context: ValidationContext = {},
): EditedValidation {
  const { document } = parsed;
  const whole = (): EditedValidation => ({
    report: validateParsedConfig(parsed, source, context),
    findings: undefined,
    kept: 0,
  });
  // Anchors or aliases let an item read another's nodes; syntax errors leave no items.
  if (parsed.syntaxIssues.length > 0 || mayHoldAnchors(document, parsed.text)) return whole();
  const findings = new Map<unknown, ItemFindings>();
  const issues = new IssueCollector(parsed);
  let kept = 0;
  try {
    checkSchemaRules(document, issues, (list, index, item, check) => {
      const range = sourceRange(item);
      if (!range) throw new Error('an item without a source range');
      const [start, , end] = range;
      let found = previous?.get(item);
      if (!found || found.list !== list || found.index !== index || found.length !== end - start) {
        const recorder = new ItemRecorder(start);
        check(recorder, item, index);
        const summary = list === 'apps' && isMap(item) ? summarizeApp(document, item) : undefined;
        found = { list, index, length: end - start, issues: recorder.issues, summary };
      } else kept += 1;
      findings.set(item, found);
      for (const issue of found.issues) {
        const at = issue.range && ([start + issue.range[0], start + issue.range[1]] as const);
        issues.add(issue.code, issue.severity, issue.message, issue.path, at);
      }
    });
    checkSemanticRules(
      document,
      issues,
      (app) => findings.get(app)?.summary ?? summarizeApp(document, app),
      context,
    );
  } catch {
    // Whatever went wrong, the whole validation says what it says about it.
    return whole();
  }
  return { report: reportOf(parsed, issues, source), findings, kept };
}

/** An item's issues in the order found, one per (code, path), offsets from its start. */
class ItemRecorder implements IssueSink {
  readonly issues: ItemIssue[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly start: number) {}

  readonly add: AddIssue = (code, severity, message, path, range) => {
    const { pointer, key } = issueIdentity(code, path);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    const relative = range && ([range[0] - this.start, range[1] - this.start] as const);
    this.issues.push({ code, severity, message, path: pointer, range: relative });
  };
}
