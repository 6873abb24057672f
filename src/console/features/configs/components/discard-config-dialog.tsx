import type { RefObject } from 'react';
import type { ConfigSummary } from '../../../../contract/configs';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../lib/notices';
import { useDiscardConfig } from '../api/discard-config';

interface DiscardConfigDialogProps {
  config: ConfigSummary | null;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/** "Discard <label>?" with Discard and Cancel. */
export function DiscardConfigDialog({ config, onClose, returnFocus }: DiscardConfigDialogProps) {
  const discard = useDiscardConfig();

  const close = () => {
    discard.reset();
    onClose();
  };

  return (
    <ConfirmDialog
      open={config !== null}
      title={config ? `Discard ${config.label}?` : ''}
      confirmLabel="Discard"
      onConfirm={() => {
        if (!config) return;
        discard.mutate(config.id, {
          onSuccess: () => {
            notify(`Discarded ${config.label}.`);
            close();
          },
        });
      }}
      onClose={close}
      pending={discard.isPending}
      error={discard.error}
      failure="The draft was not discarded."
      returnFocus={returnFocus}
    >
      <p>The draft and its unpublished edits are gone for good. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
