/**
 * A question with one action and Cancel: "Revoke X?", "Discard X?", "Make X live?".
 * Cancel has the focus, so an Enter pressed by habit is harmless; a failed action is said
 * in the dialog (which stays open) so the person can try again or cancel.
 */
import { useRef, type ReactNode, type RefObject } from 'react';
import { describeError } from '../lib/api-client';
import { Dialog } from './dialog';
import { DialogActions } from './dialog-actions';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What happens, in words; shown above the buttons. */
  children: ReactNode;
  confirmLabel: string;
  confirmVariant?: 'primary' | 'danger';
  onConfirm: () => void;
  onClose: () => void;
  /** The action is under way: the button shows progress and takes no second click. */
  pending: boolean;
  /** The action failed: `failure` says what did not happen, the error says why. */
  error: unknown;
  failure: string;
  returnFocus?: RefObject<HTMLElement | null>;
  wide?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  confirmVariant = 'danger',
  onConfirm,
  onClose,
  pending,
  error,
  failure,
  returnFocus,
  wide,
}: ConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      initialFocus={cancel}
      returnFocus={returnFocus}
      wide={wide}
    >
      {children}
      {error != null && (
        <p role="alert" className="alert alert-error">
          {failure} {describeError(error)}
        </p>
      )}
      <DialogActions
        confirmLabel={confirmLabel}
        confirmVariant={confirmVariant}
        onConfirm={onConfirm}
        onCancel={onClose}
        pending={pending}
        cancelRef={cancel}
      />
    </Dialog>
  );
}
