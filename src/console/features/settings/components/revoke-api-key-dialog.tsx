import type { RefObject } from 'react';
import type { ApiKey } from '../../../../contract/api-keys';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../lib/notices';
import { useRevokeApiKey } from '../api/revoke-api-key';

interface RevokeApiKeyDialogProps {
  apiKey: ApiKey | null;
  keyInUseId: string | undefined;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/** "Revoke <name>?" with Revoke and Cancel. */
export function RevokeApiKeyDialog({
  apiKey,
  keyInUseId,
  onClose,
  returnFocus,
}: RevokeApiKeyDialogProps) {
  const revoke = useRevokeApiKey({ keyInUseId });
  const inUse = apiKey !== null && apiKey.id === keyInUseId;

  const close = () => {
    revoke.reset();
    onClose();
  };

  return (
    <ConfirmDialog
      open={apiKey !== null}
      title={apiKey ? `Revoke ${apiKey.name}?` : ''}
      confirmLabel="Revoke"
      onConfirm={() => {
        if (!apiKey) return;
        revoke.mutate(apiKey.id, {
          // For the key in use the page signs out instead (this dialog is gone).
          onSuccess: () => {
            notify(`Revoked ${apiKey.name}.`);
            close();
          },
        });
      }}
      onClose={close}
      pending={revoke.isPending}
      error={revoke.error}
      failure="The key was not revoked."
      returnFocus={returnFocus}
    >
      {apiKey && (
        <p>
          Requests with <code>{apiKey.obfuscated_value}</code> fail from now on. This cannot be
          undone.
        </p>
      )}
      {inUse && (
        <p className="warning-text">This is the key you are using: revoking it signs you out.</p>
      )}
    </ConfirmDialog>
  );
}
