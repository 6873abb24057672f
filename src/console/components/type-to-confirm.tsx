/**
 * On a protected environment, a change that goes live asks the person to type the
 * environment's name first: "Type Production to confirm". Elsewhere it asks nothing.
 */
import { useId, useState, type ReactNode } from 'react';
import { useCurrentEnvironment } from '../api/accounts';

export interface TypedConfirmation {
  /** The field, or null where the environment is not protected. */
  readonly field: ReactNode;
  /** Said when the person tried to go ahead without the name typed. */
  readonly alert: ReactNode;
  /** `action`, run only once the name is typed (or at once where nothing is protected). */
  guard<A extends unknown[]>(action: (...args: A) => unknown): (...args: A) => void;
  reset(): void;
}

/** `open`: whether the dialog asking is open (a closed one asks the server nothing). */
export function useTypedConfirmation(open: boolean): TypedConfirmation {
  const environment = useCurrentEnvironment(open);
  const [typed, setTyped] = useState('');
  const [refused, setRefused] = useState(false);
  const id = useId();
  const name = environment?.protected ? environment.name : null;
  const confirmed = name === null || typed.trim() === name;
  return {
    field:
      name === null ? null : (
        <p className="field">
          <label htmlFor={id}>
            {name} is protected. Type <strong>{name}</strong> to confirm
          </label>
          <input
            id={id}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setTyped(event.target.value)}
          />
        </p>
      ),
    alert:
      refused && !confirmed ? (
        <p role="alert" className="alert alert-error">
          Type {name} to confirm.
        </p>
      ) : null,
    guard:
      (action) =>
      (...args) => {
        setRefused(!confirmed);
        if (confirmed) action(...args);
      },
    reset: () => {
      setTyped('');
      setRefused(false);
    },
  };
}
