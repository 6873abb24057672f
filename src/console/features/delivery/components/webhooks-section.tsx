import { useId, useRef, useState } from 'react';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { CreatedWebhook, Webhook } from '../../../../contract/webhooks';
import { LoadMore } from '../../../components/load-more';
import { ManagedSection } from '../../../components/managed-section';
import { ShownOnce } from '../../../components/shown-once';
import { offers } from '../../../lib/permissions';
import { useWebhooks } from '../api/get-webhooks';
import { CreateWebhookForm } from './create-webhook-form';
import { DeleteWebhookDialog } from './delete-webhook-dialog';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookTable } from './webhook-table';

export const SECRET_SHOWN_ONCE =
  'Copy this signing secret now: it will not be shown again. Your receiver needs it to check that deliveries come from us.';

export const CANNOT_MANAGE_WEBHOOKS =
  'You cannot manage webhooks: that needs the webhooks:manage permission.';

/**
 * The account's webhook endpoints, Add and Delete, and each one's recent deliveries: for a
 * key that holds webhooks:manage. Others are told why there is nothing to manage.
 */
export function WebhooksSection({ status }: { status: AuthStatus }) {
  const canManage = offers(status, 'webhooks:manage');
  const webhooks = useWebhooks({ enabled: canManage });
  const deliveriesId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  // The secret lives here only: gone with Done, or when the page is left.
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  return (
    <ManagedSection
      title="Webhooks"
      allowed={canManage}
      notAllowed={CANNOT_MANAGE_WEBHOOKS}
      query={webhooks}
      notOffered="This server does not offer webhooks."
      loading="Loading webhooks…"
      failure="The webhooks could not be loaded."
      intro={
        <p className="field-hint">
          Your own server hears of changes as they happen: each event is a signed POST to its URL,
          sent again until it is answered with a 2xx.
        </p>
      }
      headingRef={heading}
      dialog={
        <DeleteWebhookDialog
          webhook={deleting}
          onClose={() => setDeleting(null)}
          returnFocus={heading}
        />
      }
    >
      {(list) => (
        <>
          <WebhookTable webhooks={list} onDelete={setDeleting} />
          <LoadMore more={webhooks.more} what="webhooks" />
          <CreateWebhookForm onCreated={setCreated} />
          {created && (
            <ShownOnce
              intro={
                <>
                  Added the webhook to <code>{created.url}</code>.
                </>
              }
              label="Signing secret"
              value={created.secret}
              copyLabel="Copy secret"
              copied="Signing secret"
              warning={SECRET_SHOWN_ONCE}
              onDone={() => setCreated(null)}
            />
          )}
          {list.length > 0 && (
            <>
              <h3 id={deliveriesId}>Recent deliveries</h3>
              {list.map((webhook) => (
                <WebhookDeliveriesDisclosure key={webhook.id} webhook={webhook} />
              ))}
            </>
          )}
        </>
      )}
    </ManagedSection>
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
