import { useId, useRef, useState } from 'react';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { CreatedWebhook, Webhook } from '../../../../contract/webhooks';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { offers } from '../../../lib/permissions';
import { useWebhooks } from '../api/get-webhooks';
import { CreateWebhookForm } from './create-webhook-form';
import { DeleteWebhookDialog } from './delete-webhook-dialog';
import { NewWebhookSecret } from './new-webhook-secret';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookTable } from './webhook-table';

export const CANNOT_MANAGE_WEBHOOKS =
  'Your API key cannot manage webhooks: that needs the api_keys:manage permission.';

/**
 * The account's webhook endpoints, Add and Delete, and each one's recent deliveries: for a
 * key that holds api_keys:manage. Others are told why there is nothing to manage.
 */
export function WebhooksSection({ status }: { status: AuthStatus }) {
  const canManage = offers(status, 'api_keys:manage');
  const webhooks = useWebhooks({ enabled: canManage });
  const titleId = useId();
  const deliveriesId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  // The secret lives here only: gone with Done, or when the page is left.
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  if (!canManage) {
    return (
      <section className="card" aria-labelledby={titleId}>
        <h2 id={titleId}>Webhooks</h2>
        <p>{CANNOT_MANAGE_WEBHOOKS}</p>
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby={titleId} aria-busy={webhooks.isPending || undefined}>
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        Webhooks
      </h2>
      <p className="field-hint">
        Your own server hears of changes as they happen: each event is a signed POST to its URL,
        sent again until it is answered with a 2xx.
      </p>
      {webhooks.isPending ? (
        <Spinner label="Loading webhooks…" />
      ) : webhooks.isError ? (
        <div className="alert alert-error" role="alert">
          <p>The webhooks could not be loaded. {describeError(webhooks.error)}</p>
          <Button onClick={() => void webhooks.refetch()}>Try again</Button>
        </div>
      ) : webhooks.data === null ? (
        <p>This server does not offer webhooks.</p>
      ) : (
        <>
          <WebhookTable webhooks={webhooks.data} onDelete={setDeleting} />
          <CreateWebhookForm onCreated={setCreated} />
          {created && <NewWebhookSecret created={created} onDone={() => setCreated(null)} />}
          {webhooks.data.length > 0 && (
            <>
              <h3 id={deliveriesId}>Recent deliveries</h3>
              {webhooks.data.map((webhook) => (
                <WebhookDeliveriesDisclosure key={webhook.id} webhook={webhook} />
              ))}
            </>
          )}
        </>
      )}
      <DeleteWebhookDialog
        webhook={deleting}
        onClose={() => setDeleting(null)}
        returnFocus={heading}
      />
    </section>
  );
}

/** "Deliveries to <url>": the list is drawn (and read) only while open. */
function WebhookDeliveriesDisclosure({ webhook }: { webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="snippet-details webhook-details"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        Deliveries to <code>{webhook.url}</code>
      </summary>
      {open && <WebhookDeliveries webhook={webhook} />}
    </details>
  );
}
