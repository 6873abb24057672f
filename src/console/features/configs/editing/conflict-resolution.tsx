/**
 * After a 412: the dialog's two ways on, each one mutation. Reload shows the newer version
 * and drops the edit; re-apply rebuilds the edit on top of the newer text (in the worker).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Dispatch } from 'react';
import type { ConfigRecord } from '../../../../contract/configs';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import type { ConfigEditorHandle } from '../../../editor/editor-types';
import { operationsClient } from '../../../editor/operations-client';
import { configQueryOptions, LIVE } from '../../../api/get-config';
import { ConflictDialog, type ConflictChoice } from '../components/conflict-dialog';
import type { EditConflict, EditSessionEvent } from './edit-session';
import { showNewerVersion } from './use-edit-operations';

/** A choice that cannot be carried out, in words. */
class ConflictFailure extends Error {}

interface Resolved {
  readonly newer: ConfigRecord;
  /** The person's edit on top of the newer text; null: nothing to put on top. */
  readonly reapplied: string | null;
}

function failureOf(choice: ConflictChoice | undefined, error: unknown): string {
  if (error instanceof ConflictFailure) return error.message;
  return choice === 'reload'
    ? `The newer version could not be loaded. ${describeError(error)}`
    : `Your edit could not be re-applied. ${describeError(error)}`;
}

export function ConflictResolution({
  routeId,
  conflict,
  editor,
  dispatch,
}: {
  routeId: string;
  conflict: EditConflict;
  editor: { readonly current: ConfigEditorHandle | null };
  dispatch: Dispatch<EditSessionEvent>;
}) {
  const queryClient = useQueryClient();
  const resolve = useMutation({
    mutationFn: async ({
      choice,
      editedText,
    }: {
      choice: ConflictChoice;
      editedText: string;
    }): Promise<Resolved> => {
      const newer = await queryClient.fetchQuery({
        ...configQueryOptions(routeId === LIVE ? LIVE : conflict.target.id),
        staleTime: 0,
      });
      if (choice === 'reload') return { newer, reapplied: null };
      const outcome = await operationsClient().run({
        kind: 'reapply',
        oldBaseText: conflict.baseText,
        editedText,
        newBaseText: newer.yaml,
      });
      if (outcome.status === 'refused') {
        throw new ConflictFailure(
          `Your edit does not apply to the newer version: ${outcome.message}`,
        );
      }
      if (outcome.status === 'syntax_error') {
        throw new ConflictFailure('Your text does not parse, so it cannot be re-applied.');
      }
      return { newer, reapplied: outcome.status === 'applied' ? outcome.text : null };
    },
    onSuccess: ({ newer, reapplied }, { choice }) => {
      const handle = editor.current;
      if (!handle) return;
      showNewerVersion(handle, newer, dispatch);
      if (choice === 'reload') {
        notify(`Loaded the newer version: revision ${newer.revision}.`, 'info');
        return;
      }
      if (reapplied !== null) handle.replaceText(reapplied);
      notify(
        `Your edit is now on top of revision ${newer.revision}. Review it and save again.`,
        'info',
      );
      handle.focus();
    },
  });

  const choose = (choice: ConflictChoice) => {
    const handle = editor.current;
    if (handle) resolve.mutate({ choice, editedText: handle.getText() });
  };

  return (
    <ConflictDialog
      open
      pending={resolve.isPending ? resolve.variables.choice : null}
      failure={resolve.isError ? failureOf(resolve.variables?.choice, resolve.error) : null}
      onReload={() => choose('reload')}
      onReapply={() => choose('reapply')}
      onCancel={() => dispatch({ type: 'conflict-dismissed' })}
    />
  );
}
