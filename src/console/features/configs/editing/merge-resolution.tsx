/**
 * After a 409 edit_conflict: the merge view, and saving what the person chose as one
 * mutation. The person's edit goes onto the newer text (in the worker) with each field
 * both changed set as chosen; the editor then holds it on top of the newer version, and the
 * page saves it as any edit. Cancel leaves the person's text in the editor, unsaved.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Dispatch } from 'react';
import type { ConfigRecord } from '../../../../contract/configs';
import type { EditConflict as ConflictingField } from '../../../../contract/problem';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import type { ConfigEditorHandle } from '../../../editor/editor-types';
import { operationsClient } from '../../../editor/operations-client';
import type { ChosenField } from '../../../editor/operations-protocol';
import { configQueryOptions } from '../../../api/get-config';
import { MergeView, type MergeChoice } from '../components/merge-view';
import type { EditConflict, EditSessionEvent } from './edit-session';
import { showNewerVersion } from './use-edit-operations';

/** A choice that cannot be carried out, in words. */
class MergeFailure extends Error {}

function chosenField(field: ConflictingField, choice: MergeChoice): ChosenField {
  const value = choice === 'theirs' ? field.theirs : field.mine;
  return {
    path: field.path,
    theirs: choice === 'theirs',
    ...(value === undefined ? {} : { value }),
  };
}

export function MergeResolution({
  conflict,
  fields,
  editor,
  dark,
  dispatch,
  onResolved,
}: {
  conflict: EditConflict;
  fields: readonly ConflictingField[];
  editor: { readonly current: ConfigEditorHandle | null };
  dark: boolean;
  dispatch: Dispatch<EditSessionEvent>;
  /** The editor holds the resolved edit on top of `newer`: save it. */
  onResolved: (newer: ConfigRecord) => void;
}) {
  const queryClient = useQueryClient();
  const resolve = useMutation({
    mutationFn: async ({
      choices,
      editedText,
    }: {
      choices: readonly MergeChoice[];
      editedText: string;
    }) => {
      const newer = await queryClient.fetchQuery({
        ...configQueryOptions(conflict.target.id),
        staleTime: 0,
      });
      const outcome = await operationsClient().run({
        kind: 'resolve',
        oldBaseText: conflict.baseText,
        editedText,
        newBaseText: newer.yaml,
        fields: fields.map((field, index) => chosenField(field, choices[index] ?? 'mine')),
      });
      if (outcome.status === 'refused') {
        throw new MergeFailure(`Your choices cannot be saved: ${outcome.message}`);
      }
      if (outcome.status === 'syntax_error') {
        throw new MergeFailure('Your text does not parse, so it cannot be merged.');
      }
      return { newer, resolved: outcome.status === 'applied' ? outcome.text : null };
    },
    onSuccess: ({ newer, resolved }) => {
      const handle = editor.current;
      if (!handle) return;
      showNewerVersion(handle, newer, dispatch);
      if (resolved === null || resolved === newer.yaml) {
        notify(
          `Nothing left to save: revision ${newer.revision} already holds what you chose.`,
          'info',
        );
        return;
      }
      handle.replaceText(resolved);
      onResolved(newer);
    },
  });

  return (
    <MergeView
      fields={fields}
      dark={dark}
      pending={resolve.isPending}
      failure={
        resolve.isError
          ? resolve.error instanceof MergeFailure
            ? resolve.error.message
            : `Your choices could not be saved. ${describeError(resolve.error)}`
          : null
      }
      onSave={(choices) => {
        const handle = editor.current;
        if (handle) resolve.mutate({ choices, editedText: handle.getText() });
      }}
      onCancel={() => dispatch({ type: 'conflict-dismissed' })}
    />
  );
}
