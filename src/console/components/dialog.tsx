/**
 * A modal dialog on the native <dialog>: showModal() makes the page behind it inert; Tab
 * also wraps inside it, Escape closes it, and focus goes back to what opened it.
 */
import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';

interface DialogProps {
  open: boolean;
  /** Called on Escape and by the dialog's own buttons. */
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** The control focused on open (default: the first focusable one). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Focused on close when the opener is gone (e.g. the row it was in disappeared). */
  returnFocus?: RefObject<HTMLElement | null>;
  /** Room for wide content such as a diff. */
  wide?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function currentOf(ref: RefObject<HTMLElement | null> | undefined): HTMLElement | null {
  return ref?.current ?? null;
}

export function Dialog({
  open,
  onClose,
  title,
  children,
  initialFocus,
  returnFocus,
  wide = false,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal; the attribute is the same dialog without the inert page.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    const first = initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (typeof dialog.close === 'function' && dialog.open) dialog.close();
      else dialog.removeAttribute('open');
      // The fallback is read at close time on purpose: it is whatever is there then.
      const target = opener?.isConnected ? opener : currentOf(returnFocus);
      target?.focus();
    };
  }, [open, initialFocus, returnFocus]);

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      // The browser's own Escape handling would close it behind React's back.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
