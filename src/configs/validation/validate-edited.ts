/**
 * Validation of an edited config that checks again only the list items the edit changed.
 *
 * The schema rules for an item of `apps` or `ab_tests` depend on nothing but the item and
 * its index, and the rules that span items read little of each app (its id, setting keys,
 * whether it is on). So the issues found in each item are kept, by item node, with their
 * ranges as offsets from the item's start, along with its app summary. When the parsed
 * config is one the incremental parse made knowing what the edit changed (`takeEditedFrom`),
 * every item that is the same node as before, at the same index and of the same length, is
 * known to be unchanged, and what was found in it is taken again, placed where the item now
 * is. The root, the lists, the A/B tests' cross checks and the positioning, deduping and
 * sorting run as in `validateParsedConfig`, so the report is the one it gives; a property
 * test holds the two equal over random configs and edits.
 *
 * Documents with anchors or aliases (an item may read another's nodes), syntax errors, or a
 * rule that throws: `validateParsedConfig` alone.
 */
import { isMap } from 'yaml';
import type { Severity, ValidationReport, ValidationSource } from '../../contract/validation';
import { takeEditedFrom } from '../incremental-parse';
import type { PathSegment } from '../json-pointer';
import type { ParsedConfig } from '../parse';
import { mayHoldAnchors, sourceRange } from '../yaml-tree';
import { IssueCollector, issueIdentity, type IssueRange, type IssueSink } from './issue-collector';
import { checkSchemaRules } from './schema-rules';
import { checkSemanticRules, summarizeApp, type AppSummary } from './semantic-rules';
import { reportOf, validateParsedConfig } from './validate';

interface ItemIssue {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly path: string;
  /** Offsets from the item's start. */
  readonly range: IssueRange | undefined;
}

/** What was found in one item of a top-level list. */
interface ItemFindings {
  readonly list: string;
  readonly index: number;
  /** The item's length in the text: a check that it is the text it was. */
  readonly length: number;
  readonly issues: readonly ItemIssue[];
  readonly summary: AppSummary | undefined;
}

/** Per validated parsed config: what was found in each item, by item node. */
const findingsOf = new WeakMap<ParsedConfig, Map<unknown, ItemFindings>>();
/** Per validated parsed config: how many items' findings were taken again. */
const keptOf = new WeakMap<ParsedConfig, number>();

/** How many items' findings `validateEdited` took again for `parsed` (for tests). */
export function findingsKept(parsed: ParsedConfig): number {
  return keptOf.get(parsed) ?? 0;
}

/** `validateParsedConfig(parsed, source)`, reusing what was found in unchanged items. */
export function validateEdited(
  parsed: ParsedConfig,
  source: ValidationSource = { type: 'draft', name: '' },
): ValidationReport {
  const { document } = parsed;
  if (parsed.syntaxIssues.length > 0 || mayHoldAnchors(document, parsed.text)) {
    return validateParsedConfig(parsed, source);
  }
  const before = takeEditedFrom(parsed);
  const previous = before && findingsOf.get(before);
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
    );
  } catch {
    // Whatever went wrong, the whole validation says what it says about it.
    return validateParsedConfig(parsed, source);
  }
  findingsOf.set(parsed, findings);
  keptOf.set(parsed, kept);
  return reportOf(parsed, issues, source);
}

/** An item's issues in the order found, one per (code, path), offsets from its start. */
class ItemRecorder implements IssueSink {
  readonly issues: ItemIssue[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly start: number) {}

  add(
    code: string,
    severity: Severity,
    message: string,
    path: readonly PathSegment[] | string,
    range: IssueRange | undefined,
  ): void {
    const { pointer, key } = issueIdentity(code, path);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    const relative = range && ([range[0] - this.start, range[1] - this.start] as const);
    this.issues.push({ code, severity, message, path: pointer, range: relative });
  }
}
