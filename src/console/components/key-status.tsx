/** A key's state in its table row, and Revoke while it is active (and may be revoked). */
import type { ReactNode } from 'react';

export type KeyState = 'Active' | 'Revoked' | 'Expired';

export function KeyStatus({
  state,
  name,
  onRevoke,
  children,
}: {
  state: KeyState;
  /** The key's name: the row shows it, and Revoke's accessible name carries it too. */
  name: string;
  onRevoke?: (() => void) | undefined;
  /** Said after the state, e.g. when it was revoked. */
  children?: ReactNode;
}) {
  return (
    <>
      <span className={`key-state key-state-${state.toLowerCase()}`}>{state}</span>
      {children}
      {state === 'Active' && onRevoke && (
        <button
          type="button"
          className="button button-danger button-small"
          onClick={onRevoke}
          aria-label={`Revoke ${name}`}
        >
          Revoke
        </button>
      )}
    </>
  );
}
