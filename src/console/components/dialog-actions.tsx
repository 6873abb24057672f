import type { Ref } from 'react';
import { Button } from './button';

interface DialogActionsProps {
  confirmLabel: string;
  confirmVariant: 'primary' | 'danger';
  /** Without it the confirm button submits the dialog's form. */
  onConfirm?: () => void;
  onCancel: () => void;
  pending: boolean;
  /** For dialogs that focus Cancel first. */
  cancelRef?: Ref<HTMLButtonElement>;
}

/** A dialog's buttons: its action, then Cancel. */
export function DialogActions({
  confirmLabel,
  confirmVariant,
  onConfirm,
  onCancel,
  pending,
  cancelRef,
}: DialogActionsProps) {
  return (
    <div className="dialog-actions">
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant={confirmVariant}
        pending={pending}
        onClick={onConfirm}
      >
        {confirmLabel}
      </Button>
      <Button ref={cancelRef} onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
