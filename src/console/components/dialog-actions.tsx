import type { ReactNode, Ref } from 'react';
import { Button } from './button';

interface DialogActionsProps {
  confirmLabel: string;
  confirmVariant: 'primary' | 'danger';
  /** Without it the confirm button submits the dialog's form. */
  onConfirm?: () => void;
  onCancel: () => void;
  pending: boolean;
  /** The action may not be taken yet (it is also off while pending). */
  confirmDisabled?: boolean;
  /** For dialogs that focus Cancel first. */
  cancelRef?: Ref<HTMLButtonElement>;
  /** Other ways on, between the action and Cancel. */
  children?: ReactNode;
}

/** A dialog's buttons: its action, any other ways on, then Cancel. */
export function DialogActions({
  confirmLabel,
  confirmVariant,
  onConfirm,
  onCancel,
  pending,
  confirmDisabled,
  cancelRef,
  children,
}: DialogActionsProps) {
  return (
    <div className="dialog-actions">
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant={confirmVariant}
        pending={pending}
        disabled={confirmDisabled}
        onClick={onConfirm}
      >
        {confirmLabel}
      </Button>
      {children}
      <Button ref={cancelRef} onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
