import type { ReactNode } from 'react';

/** A failure said where it happened, announced at once; nothing while there is none. */
export function ErrorAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="alert alert-error">
      {children}
    </p>
  );
}
