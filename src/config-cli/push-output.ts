/**
 * What `config push` says it did: as text told step by step (the draft and its issues, or why
 * nothing was saved or published), or as one JSON object at the end, for CI to read.
 */
import type { ConfigEditResult } from '../contract/config-edit';
import type { ConfigRecord } from '../contract/configs';
import type { EditConflict, Problem } from '../contract/problem';
import type { ValidationIssue, ValidationReport } from '../contract/validation';
import type { CommandIo } from './command-io';
import { issueLines, json, reportJson, type IssueJson } from './issue-formats';

/** What a push does with the saved draft when asked. */
export type NextStep = 'publish' | 'request-review';

/** The steps of a push, as the command takes them; each output tells them its own way. */
export interface PushOutput {
  /** The file is not YAML: nothing was sent. */
  notAConfig(issues: readonly ValidationIssue[]): void;
  /** The file is the config's text at `revision` already: nothing was sent. */
  unchanged(target: ConfigRecord, revision: number): void;
  saved(result: ConfigEditResult): void;
  /** The service refused the edit (a conflict among the refusals): nothing was saved. */
  notSaved(problem: Problem): void;
  /** The saved draft has errors, so the next step was not tried. */
  draftHasErrors(step: NextStep): void;
  published(record: ConfigRecord): void;
  reviewRequested(record: ConfigRecord): void;
  /** The service refused the publish or the review request. */
  notDone(step: NextStep, problem: Problem): void;
  /** The push is over. */
  end(): void;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const savedRevision = (result: ConfigEditResult) => result.revision ?? result.config.revision;

/** Whether the report's positions are the file's: not when a merge kept newer edits' text too. */
const reportIsOfFile = (fileText: string, report: ValidationReport) =>
  report.yaml === undefined || report.yaml === fileText;

/**
 * The draft, the revisions the push merged with, and every issue. Issues sit at the file's
 * positions when the saved text is the file; a merge that kept newer edits' text too places
 * them in the saved text, which `pull` gives.
 */
function savedDraft(file: string, fileText: string, result: ConfigEditResult): string {
  const origin = result.created ? `new, from ${result.base_config_id}` : 'updated';
  const report = result.validation;
  const savedIsFile = reportIsOfFile(fileText, report);
  const where = savedIsFile ? file : `${result.id}@${savedRevision(result)}`;
  return [
    `draft ${result.id} revision ${savedRevision(result)} (${origin})\n`,
    `merged revisions: ${result.merged_revisions.join(', ') || 'none'}\n`,
    savedIsFile
      ? ''
      : `the saved text holds newer edits besides ${file}: issues are placed in it (pull it to see them)\n`,
    issueLines(where, report.issues),
    `${report.valid ? 'valid' : 'not valid'}: ${count(report.error_count, 'error')}, ${count(report.warning_count, 'warning')}\n`,
  ].join('');
}

const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

/** A 409 edit_conflict: each field both edits changed, with base, theirs and mine. */
function conflicts(problem: Problem, list: readonly EditConflict[]): string {
  return [
    `not saved: ${problem.detail}\n`,
    ...list.map(
      (conflict) =>
        `${conflict.path} (revision ${conflict.revision} by ${conflict.by} at ${conflict.at})\n` +
        `  base:   ${shown(conflict.base)}\n` +
        `  theirs: ${shown(conflict.theirs)}\n` +
        `  mine:   ${shown(conflict.mine)}\n`,
    ),
  ].join('');
}

/** Any other refusal of the edit: its code, detail and the fields at fault. */
function refused(what: string, problem: Problem): string {
  return [
    `${what}: ${problem.code}: ${problem.detail}\n`,
    ...(problem.errors ?? []).map((error) => `  ${error.path}: ${error.message}\n`),
  ].join('');
}

/** The text output: each step printed as it happens. */
export function pushText(io: CommandIo, file: string, fileText: string): PushOutput {
  return {
    notAConfig(issues) {
      io.stdout(issueLines(file, issues));
      io.stdout(`not saved: ${file} cannot be read as a config\n`);
    },
    unchanged: (target, revision) =>
      io.stdout(`nothing to change: ${file} is the text of ${target.id} at revision ${revision}\n`),
    saved: (result) => io.stdout(savedDraft(file, fileText, result)),
    notSaved: (problem) =>
      io.stdout(
        problem.code === 'edit_conflict' && problem.conflicts
          ? conflicts(problem, problem.conflicts)
          : refused('not saved', problem),
      ),
    draftHasErrors: (step) =>
      io.stdout(
        `not ${step === 'publish' ? 'published' : 'sent for review'}: the draft has errors\n`,
      ),
    published: (record) =>
      io.stdout(`published ${record.id} (${record.live ? 'live' : 'not live'})\n`),
    reviewRequested: (record) => io.stdout(`review requested for ${record.id}\n`),
    notDone: (step, problem) =>
      io.stdout(refused(step === 'publish' ? 'not published' : 'review not requested', problem)),
    end: () => undefined,
  };
}

/** The step a refusal stopped, in `--format json`. */
export type PushStep = 'save' | 'publish' | 'request_review';

/** What `push --format json` prints, documented in docs/config-as-code.md; a stable shape. */
export interface PushJson {
  file: string;
  /** The config pushed onto: `--config`, else the live config. */
  base_config_id: string;
  /** A revision was saved. */
  changed: boolean;
  /** The push made a new draft (of the live or a published config). */
  created: boolean;
  /** The draft saved, or the config whose text the file already is; null when nothing was saved. */
  config_id: string | null;
  revision: number | null;
  merged_revisions: number[];
  /** The config's report, as `validate --format json` gives it; null when the edit was refused. */
  valid: boolean | null;
  error_count: number;
  warning_count: number;
  issues: IssueJson[];
  /** Where the issues' lines and columns are: the file, or the config's text when it holds more. */
  issues_at: 'file' | 'saved_text';
  published: { config_id: string; live: boolean } | null;
  review_requested: boolean;
  refused: {
    step: PushStep;
    code: string;
    detail: string;
    errors: { path: string; message: string }[];
  } | null;
  conflicts: EditConflict[];
}

const jsonStep = (step: NextStep): PushStep => (step === 'publish' ? 'publish' : 'request_review');

// The command's own refusals (a file that is not YAML, a draft with errors) carry the code
// the service gives the same refusal, so that CI reads one code either way.
const INVALID_CONFIG = 'invalid_config';

const conflictJson = ({ path, base, theirs, mine, revision, by, at }: EditConflict) => ({
  path,
  base,
  theirs,
  mine,
  revision,
  by,
  at,
});

/** The JSON output: the steps gathered into one object, printed at the end. */
export function pushJson(
  io: CommandIo,
  file: string,
  fileText: string,
  target: ConfigRecord,
): PushOutput {
  const result: PushJson = {
    file,
    base_config_id: target.id,
    changed: false,
    created: false,
    config_id: null,
    revision: null,
    merged_revisions: [],
    valid: null,
    error_count: 0,
    warning_count: 0,
    issues: [],
    issues_at: 'file',
    published: null,
    review_requested: false,
    refused: null,
    conflicts: [],
  };
  const report = (validation: ValidationReport) => {
    const fields = reportJson(file, validation);
    result.valid = fields.valid;
    result.error_count = fields.error_count;
    result.warning_count = fields.warning_count;
    result.issues = fields.issues;
    result.issues_at = reportIsOfFile(fileText, validation) ? 'file' : 'saved_text';
  };
  const refuse = (step: PushStep, problem: Pick<Problem, 'code' | 'detail' | 'errors'>) => {
    const errors = (problem.errors ?? []).map(({ path, message }) => ({ path, message }));
    result.refused = { step, code: problem.code, detail: problem.detail, errors };
  };
  return {
    notAConfig(issues) {
      const errors = issues.filter((issue) => issue.severity !== 'warning').length;
      report({
        valid: false,
        error_count: errors,
        warning_count: issues.length - errors,
        issues: [...issues],
      });
      refuse('save', { code: INVALID_CONFIG, detail: `${file} cannot be read as a config` });
    },
    unchanged(config, revision) {
      result.config_id = config.id;
      result.revision = revision;
      report({ ...config.validation, yaml: config.validation.yaml ?? config.yaml });
    },
    saved(saved) {
      result.changed = true;
      result.created = saved.created;
      result.config_id = saved.id;
      result.revision = savedRevision(saved);
      result.merged_revisions = [...saved.merged_revisions];
      report(saved.validation);
    },
    notSaved(problem) {
      refuse('save', problem);
      if (problem.code === 'edit_conflict')
        result.conflicts = (problem.conflicts ?? []).map(conflictJson);
    },
    draftHasErrors: (step) =>
      refuse(jsonStep(step), { code: INVALID_CONFIG, detail: 'the draft has errors' }),
    published(record) {
      result.published = { config_id: record.id, live: record.live };
    },
    reviewRequested() {
      result.review_requested = true;
    },
    notDone: (step, problem) => refuse(jsonStep(step), problem),
    end: () => io.stdout(json(result)),
  };
}
