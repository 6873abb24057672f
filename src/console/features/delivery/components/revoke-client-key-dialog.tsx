import type { RefObject } from 'react';
import type { ClientKey } from '../../../../contract/delivery';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../lib/notices';
import { useRevokeClientKey } from '../api/revoke-client-key';

interface RevokeClientKeyDialogProps {
  clientKey: ClientKey | null;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/** "Revoke <name>?" with Revoke and Cancel. */
export function RevokeClientKeyDialog({
  clientKey,
  onClose,
  returnFocus,
}: RevokeClientKeyDialogProps) {
  const revoke = useRevokeClientKey();

  const close = () => {
    revoke.reset();
    onClose();
  };

  return (
    <ConfirmDialog
      open={clientKey !== null}
      title={clientKey ? `Revoke ${clientKey.name}?` : ''}
      confirmLabel="Revoke"
      onConfirm={() => {
        if (!clientKey) return;
        revoke.mutate(clientKey.id, {
          onSuccess: () => {
            notify(`Revoked ${clientKey.name}.`);
            close();
          },
        });
      }}
      onClose={close}
      pending={revoke.isPending}
      error={revoke.error}
      failure="The client key was not revoked."
      returnFocus={returnFocus}
    >
      {clientKey && (
        <p>
          Apps built with <code>{clientKey.key}</code> can no longer read their settings with it,
          from the next request on. This cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}
