/**
 * A value shown once, just after it was created (a key, a signing secret): read-only,
 * focused and selected so it can be copied at once, with Copy and Done. It lives only in
 * the state of the screen that shows it; Done (or leaving) and it is gone.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { copyToClipboard } from '../lib/clipboard';
import { Button } from './button';
import { TextField } from './form-fields';

interface ShownOnceProps {
  /** What was created, in a sentence above the field. */
  intro: ReactNode;
  label: string;
  value: string;
  /** The Copy button's text, and what the notice says was copied. */
  copyLabel: string;
  copied: string;
  /** Why to copy it now, when it will not be shown again. */
  warning?: string;
  /** Shown below the field (and the warning), above Done. */
  children?: ReactNode;
  onDone: () => void;
}

export function ShownOnce({
  intro,
  label,
  value,
  copyLabel,
  copied,
  warning,
  children,
  onDone,
}: ShownOnceProps) {
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [value]);

  return (
    <div className="new-key">
      <p>{intro}</p>
      <TextField
        ref={field}
        label={label}
        readOnly
        value={value}
        spellCheck={false}
        className="secret"
        onFocus={(event) => event.currentTarget.select()}
        after={<Button onClick={() => void copyToClipboard(value, copied)}>{copyLabel}</Button>}
      />
      {warning && <p className="warning-text">{warning}</p>}
      {children}
      <div className="form-actions">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
