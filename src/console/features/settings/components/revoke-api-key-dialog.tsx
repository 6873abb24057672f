import { useRef, type RefObject } from 'react';
import type { ApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useRevokeApiKey } from '../api/revoke-api-key';

interface RevokeApiKeyDialogProps {
  apiKey: ApiKey | null;
  keyInUseId: string | undefined;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/** "Revoke <name>?" with Revoke and Cancel; Cancel has the focus, so Enter is harmless. */
export function RevokeApiKeyDialog({
  apiKey,
  keyInUseId,
  onClose,
  returnFocus,
}: RevokeApiKeyDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const revoke = useRevokeApiKey({ keyInUseId });
  const inUse = apiKey !== null && apiKey.id === keyInUseId;

  const close = () => {
    revoke.reset();
    onClose();
  };

  return (
    <Dialog
      open={apiKey !== null}
      onClose={close}
      title={apiKey ? `Revoke ${apiKey.name}?` : ''}
      initialFocus={cancel}
      returnFocus={returnFocus}
    >
      {apiKey && (
        <>
          <p>
            Requests with <code>{apiKey.obfuscated_value}</code> fail from now on. This cannot be
            undone.
          </p>
          {inUse && (
            <p className="warning-text">
              This is the key you are using: revoking it signs you out.
            </p>
          )}
          {revoke.isError && (
            <p role="alert" className="alert alert-error">
              The key was not revoked. {describeError(revoke.error)}
            </p>
          )}
          <div className="dialog-actions">
            <Button
              variant="danger"
              pending={revoke.isPending}
              onClick={() =>
                revoke.mutate(apiKey.id, {
                  // For the key in use the page signs out instead (this dialog is gone).
                  onSuccess: () => {
                    notify(`Revoked ${apiKey.name}.`);
                    close();
                  },
                })
              }
            >
              Revoke
            </Button>
            <Button ref={cancel} onClick={close}>
              Cancel
            </Button>
          </div>
        </>
      )}
    </Dialog>
  );
}
