import { useRef } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { ErrorAlert } from '../../../components/error-alert';

export type ConflictChoice = 'reload' | 'reapply';

interface ConflictDialogProps {
  open: boolean;
  /** The choice being carried out, if any. */
  pending: ConflictChoice | null;
  /** Why the last choice failed, in words. */
  failure: string | null;
  onReload: () => void;
  onReapply: () => void;
  onCancel: () => void;
}

/** A save answered 412: someone saved a newer version since this page loaded it. */
export function ConflictDialog({
  open,
  pending,
  failure,
  onReload,
  onReapply,
  onCancel,
}: ConflictDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog open={open} onClose={onCancel} title="This config has changed" initialFocus={cancel}>
      <p>
        Someone saved a newer version of this config after you opened it, so your edit was not
        saved. Load the newer version and drop your edit, or put your edit on top of the newer
        version and review it before saving again.
      </p>
      <ErrorAlert>{failure}</ErrorAlert>
      <DialogActions
        confirmLabel="Re-apply my edit"
        confirmVariant="primary"
        confirmDisabled={pending !== null}
        onConfirm={onReapply}
        onCancel={onCancel}
        pending={pending === 'reapply'}
        cancelRef={cancel}
      >
        <Button pending={pending === 'reload'} disabled={pending !== null} onClick={onReload}>
          Reload the newer version
        </Button>
      </DialogActions>
    </Dialog>
  );
}
