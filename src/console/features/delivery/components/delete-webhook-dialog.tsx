import type { RefObject } from 'react';
import type { Webhook } from '../../../../contract/webhooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../lib/notices';
import { useDeleteWebhook } from '../api/delete-webhook';

interface DeleteWebhookDialogProps {
  webhook: Webhook | null;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/** "Delete the webhook to <url>?" with Delete and Cancel. */
export function DeleteWebhookDialog({ webhook, onClose, returnFocus }: DeleteWebhookDialogProps) {
  const remove = useDeleteWebhook();

  const close = () => {
    remove.reset();
    onClose();
  };

  return (
    <ConfirmDialog
      open={webhook !== null}
      title={webhook ? `Delete the webhook to ${webhook.url}?` : ''}
      confirmLabel="Delete"
      onConfirm={() => {
        if (!webhook) return;
        remove.mutate(webhook.id, {
          onSuccess: () => {
            notify(`Deleted the webhook to ${webhook.url}.`);
            close();
          },
        });
      }}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
      failure="The webhook was not deleted."
      returnFocus={returnFocus}
    >
      {webhook && (
        <p>
          <code>{webhook.url}</code> gets no more events, not even those waiting to be sent. This
          cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}
