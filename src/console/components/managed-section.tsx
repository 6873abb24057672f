/**
 * The card around something the account manages (API keys, client keys, webhooks, the
 * review policy): who may see it, loading, a failure with Try again, a server that does not
 * offer it (its list reads null), and then the section's own content for the data.
 */
import { useId, type ReactNode, type RefObject } from 'react';
import { describeError } from '../lib/api-client';
import { Button } from './button';
import { Spinner } from './spinner';

/** What the section reads of its query: a TanStack query, or a list read page by page. */
interface SectionQuery<Data> {
  readonly data: Data | null | undefined;
  readonly isPending: boolean;
  readonly isError: boolean;
  readonly error: unknown;
  refetch(): unknown;
}

interface ManagedSectionProps<Data> {
  title: string;
  /** The key may manage this; when not, `notAllowed` says why (absent: nothing is shown). */
  allowed: boolean;
  notAllowed?: string;
  /** null data: the server does not offer it; `notOffered` says so (absent: nothing is shown). */
  query: SectionQuery<Data>;
  notOffered?: string;
  /** The spinner's label, and the sentence before the error's. */
  loading: string;
  failure: string;
  /** Shown under the heading, whatever the state. */
  intro?: ReactNode;
  /** Given: the heading takes focus back from the section's dialogs. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  children: (data: Data) => ReactNode;
  /** The section's dialog, mounted whatever the state, so a refetch never closes it. */
  dialog?: ReactNode;
}

export function ManagedSection<Data>({
  title,
  allowed,
  notAllowed,
  query,
  notOffered,
  loading,
  failure,
  intro,
  headingRef,
  children,
  dialog,
}: ManagedSectionProps<Data>) {
  const titleId = useId();

  if (!allowed) {
    return notAllowed === undefined ? null : (
      <section className="card" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        <p>{notAllowed}</p>
      </section>
    );
  }
  if (query.data === null && notOffered === undefined) return null;

  return (
    <section className="card" aria-labelledby={titleId} aria-busy={query.isPending || undefined}>
      <h2 id={titleId} ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
        {title}
      </h2>
      {intro}
      {query.isPending ? (
        <Spinner label={loading} />
      ) : query.isError ? (
        <div className="alert alert-error" role="alert">
          <p>
            {failure} {describeError(query.error)}
          </p>
          <Button onClick={() => void query.refetch()}>Try again</Button>
        </div>
      ) : query.data === null ? (
        <p>{notOffered}</p>
      ) : query.data === undefined ? null : (
        children(query.data)
      )}
      {dialog}
    </section>
  );
}
