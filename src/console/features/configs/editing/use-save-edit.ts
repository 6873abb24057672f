/**
 * Save draft as one mutation: the edit as operations, the summary, then `POST /config/edit`
 * with the revision the edit was made on as `base_revision`, so that the server merges it
 * with edits saved since. Its state is the save's state: `isPending` while any step runs
 * (the editor is read-only), `data` says how it ended, `error` why it failed.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { EditorOperationsResult } from '../../../../configs';
import type { ConfigEditRequest } from '../../../../contract/config-edit';
import type { ConfigRecord } from '../../../../contract/configs';
import { ApiProblem, describeError } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { editConfig, editConflictsOf, type EditConfigOutput } from '../../../api/edit-config';
import { LIVE } from '../../../api/get-config';
import { configHistoryQueryOptions } from '../api/get-config-history';
import { editToPost } from './edit-request';
import type { SessionConfig } from './edit-session';

export const SYNTAX_ALERT = 'Fix the syntax errors before saving.';

export interface SaveEditInput {
  readonly target: SessionConfig;
  /** The saved text the edit was made on, and the person's text. */
  readonly baseText: string;
  readonly editedText: string;
  /** The summary once the form accepts it; null when the form refuses it (and says why). */
  readonly summary: () => Promise<string | null>;
}

export type SaveEditOutcome =
  | { readonly status: 'syntax_error' | 'unchanged' | 'needs_summary' }
  | {
      readonly status: 'saved';
      readonly output: EditConfigOutput;
      /** The operations it posted: the report's issues are traced back to them. */
      readonly operations: ConfigEditRequest['operations'];
      /** The config as it is now, as the detail query holds it. */
      readonly record: ConfigRecord;
      /** Why the service wrote the text itself instead of keeping the typed one; null: kept. */
      readonly textRefused: string | null;
      /** The edits saved meanwhile that this one was merged with; null: none. */
      readonly merged: MergedWith | null;
    };

export interface MergedWith {
  /** Oldest first. */
  readonly revisions: readonly number[];
  /** Who made each, as the history names them; null when the history could not be read. */
  readonly authors: readonly string[] | null;
}

/** Why a merged save's typed text was not kept, as the save notice ends it. */
export const TEXT_NOT_CARRIED = "your typed changes meet the newer edits' changes to the text.";

function listed(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "Merged with ana@example.com's edit (revision 7)." and the like. */
export function mergedNoticeOf({ revisions, authors }: MergedWith): string {
  if (authors === null) {
    return revisions.length === 1
      ? `Merged with the edit of revision ${revisions[0]}.`
      : `Merged with the edits of revisions ${listed(revisions.map(String))}.`;
  }
  if (revisions.length === 1) return `Merged with ${authors[0]}'s edit (revision ${revisions[0]}).`;
  const each = revisions.map((revision, index) => `${authors[index]} (revision ${revision})`);
  return `Merged with the edits of ${listed(each)}.`;
}

/** Who made the merged revisions, from the config's history; null when it cannot be read. */
async function authorsOf(
  queryClient: QueryClient,
  configId: string,
  revisions: readonly number[],
): Promise<string[] | null> {
  try {
    const history = await queryClient.fetchQuery({
      ...configHistoryQueryOptions(configId),
      staleTime: 0,
    });
    const authors = revisions.map((revision) => {
      const entry = history.find(
        (item) => item.config_id === configId && item.revision === revision,
      );
      return entry?.actor_email ?? entry?.api_key_name;
    });
    return authors.every((author) => author !== undefined) ? (authors as string[]) : null;
  } catch {
    return null;
  }
}

/** The service would not take the typed text as saying what the operations say. */
function isTextMismatch(error: unknown): error is ApiProblem {
  return error instanceof ApiProblem && error.code === 'text_mismatch';
}

/** A save refused with If-Match because someone saved a newer version first. */
export function isStale(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 412;
}

/** What the page says about how the save went; null: nothing (or a dialog says it). */
export function saveAlertOf(save: {
  readonly error: unknown;
  readonly data: SaveEditOutcome | undefined;
}): string | null {
  if (save.error !== null && save.error !== undefined) {
    return isStale(save.error) || editConflictsOf(save.error) !== null
      ? null
      : `The edit was not saved. ${describeError(save.error)}`;
  }
  return save.data?.status === 'syntax_error' ? SYNTAX_ALERT : null;
}

/** The saved config as the detail query holds it: the server's summary, text and report. */
function savedRecordOf({ result }: EditConfigOutput, editedText: string): ConfigRecord {
  const {
    valid: _valid,
    error_count: _errors,
    warning_count: _warnings,
    ...config
  } = result.config;
  return { ...config, yaml: result.validation.yaml ?? editedText, validation: result.validation };
}

export function useSaveEdit({
  routeId,
  diff,
}: {
  routeId: string;
  diff: (baseText: string, editedText: string) => Promise<EditorOperationsResult>;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      target,
      baseText,
      editedText,
      summary,
    }: SaveEditInput): Promise<SaveEditOutcome> => {
      const edit = editToPost(await diff(baseText, editedText), baseText, editedText);
      if (edit.status !== 'changed') return { status: edit.status };
      const checked = await summary();
      if (checked === null) return { status: 'needs_summary' };
      // The live config's page lets the server pick the live config (and copy it), with
      // If-Match naming the one shown; a published config never changes, so nothing merges.
      const post = (operations: ConfigEditRequest['operations']) =>
        routeId === LIVE
          ? editConfig({
              request: { operations, summary: checked },
              revision: target.revision,
              id: target.id,
            })
          : editConfig({
              request: {
                operations,
                summary: checked,
                config_id: target.id,
                base_revision: target.revision,
              },
              revision: null,
            });
      let operations = edit.operations;
      let textRefused: string | null = null;
      let output: EditConfigOutput;
      try {
        output = await post(operations);
      } catch (error) {
        // The meaning is what matters: save it, the service writing the text, and say so.
        if (!isTextMismatch(error) || edit.meaning.length === 0) throw error;
        textRefused = error.detail;
        operations = edit.meaning;
        output = await post(operations);
      }
      // Merged, and the typed text met the others' changes: the service wrote the text.
      if (output.result.text_rebased === false) textRefused = TEXT_NOT_CARRIED;
      const revisions = output.result.merged_revisions;
      const merged =
        revisions.length === 0
          ? null
          : { revisions, authors: await authorsOf(queryClient, output.result.id, revisions) };
      const record = savedRecordOf(output, editedText);
      return { status: 'saved', output, operations, record, textRefused, merged };
    },
    onSuccess: (outcome) => {
      if (outcome.status !== 'saved') return;
      // The page (or the new draft's page) shows the saved config at once from this.
      queryClient.setQueryData(configsKeys.detail(outcome.record.id), outcome.record);
      void queryClient.invalidateQueries({ queryKey: configsKeys.list() });
      void queryClient.invalidateQueries({ queryKey: configsKeys.histories() });
    },
  });
}
