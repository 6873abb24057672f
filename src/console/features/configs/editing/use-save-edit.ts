/**
 * Save draft as one mutation: the edit as operations, the summary, then `POST /config/edit`.
 * Its state is the save's state: `isPending` while any step runs (the editor is read-only),
 * `data` says how it ended, `error` why it failed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditorOperationsResult } from '../../../../configs';
import type { ConfigEditRequest } from '../../../../contract/config-edit';
import type { ConfigRecord } from '../../../../contract/configs';
import { ApiProblem, describeError } from '../../../lib/api-client';
import { configsKeys } from '../../../api/config-keys';
import { editConfig, type EditConfigOutput } from '../../../api/edit-config';
import { LIVE } from '../../../api/get-config';
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
    };

/** The service would not take the typed text as saying what the operations say. */
function isTextMismatch(error: unknown): error is ApiProblem {
  return error instanceof ApiProblem && error.code === 'text_mismatch';
}

/** A save refused because someone saved a newer version first. */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 412;
}

/** What the page says about how the save went; null: nothing (or the 412 dialog says it). */
export function saveAlertOf(save: {
  readonly error: unknown;
  readonly data: SaveEditOutcome | undefined;
}): string | null {
  if (save.error !== null && save.error !== undefined) {
    return isConflict(save.error) ? null : `The edit was not saved. ${describeError(save.error)}`;
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
      const post = (operations: ConfigEditRequest['operations']) =>
        editConfig({
          request: {
            operations,
            summary: checked,
            // The live config's page lets the server pick the live config (and copy it).
            ...(routeId === LIVE ? {} : { config_id: target.id }),
          },
          revision: target.revision,
          ...(routeId === LIVE ? { id: target.id } : {}),
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
      const record = savedRecordOf(output, editedText);
      return { status: 'saved', output, operations, record, textRefused };
    },
    onSuccess: (outcome) => {
      if (outcome.status !== 'saved') return;
      // The page (or the new draft's page) shows the saved config at once from this.
      queryClient.setQueryData(configsKeys.detail(outcome.record.id), outcome.record);
      void queryClient.invalidateQueries({ queryKey: configsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: configsKeys.histories() });
    },
  });
}
