import type { ComponentProps } from 'react';
import { Spinner } from './spinner';

type ButtonProps = ComponentProps<'button'> & {
  /** Shows progress: a spinner, aria-busy, and no second click. The name stays the same. */
  pending?: boolean;
  variant?: 'primary' | 'secondary' | 'danger';
};

export function Button({
  pending = false,
  variant = 'secondary',
  className,
  children,
  disabled,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      {...props}
      type={type}
      className={['button', `button-${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
    >
      {pending && <Spinner />}
      {children}
    </button>
  );
}
