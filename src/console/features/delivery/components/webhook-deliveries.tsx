/**
 * An endpoint's recent deliveries, with "Send a test event" and Retry for a failed one.
 * Drawn only while its disclosure is open, so only shown lists are read (and re-read every
 * few seconds while a delivery is pending).
 */
import { LoadMore } from '../../../components/load-more';
import { useState } from 'react';
import type { Webhook, WebhookDelivery } from '../../../../contract/webhooks';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { Time } from '../../../components/time';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { formatRelative, useNow } from '../../../lib/time';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRetryWebhookDelivery } from '../api/retry-webhook-delivery';
import { useSendTestWebhook } from '../api/send-test-webhook';
import { describeEvent } from '../webhook-events';
import { DataTable } from '../../../components/data-table';

const STATUS_WORDS: Readonly<Record<WebhookDelivery['status'], string>> = {
  delivered: 'Delivered',
  pending: 'Pending',
  failed: 'Failed',
};

/** The last answer in words: its HTTP status, why it failed, or that none came yet. */
function lastAnswer(delivery: WebhookDelivery) {
  if (delivery.attempts === 0) return <>Not sent yet</>;
  return (
    <>
      {delivery.response_status !== null ? `HTTP ${delivery.response_status}` : 'No answer'}
      {delivery.error !== null && <p className="cell-note">{delivery.error}</p>}
    </>
  );
}

export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const deliveries = useWebhookDeliveries(webhook.id);
  const sendTest = useSendTestWebhook(webhook.id);
  const retry = useRetryWebhookDelivery(webhook.id);
  const [queued, setQueued] = useState<WebhookDelivery | null>(null);
  // Relative times ("in 5 seconds") stay true while the list is shown.
  const now = useNow(1_000);

  const onSendTest = () => {
    // The last one's news goes: what shows next is about this one.
    setQueued(null);
    sendTest.mutate(undefined, {
      onSuccess: (delivery) => setQueued(delivery),
      onError: (error) => notify(`The test event was not sent. ${describeError(error)}`, 'error'),
    });
  };

  const onRetry = (delivery: WebhookDelivery) =>
    retry.mutate(delivery.id, {
      onSuccess: () => notify(`Sending ${delivery.id} again.`),
      onError: (error) =>
        notify(`The delivery was not sent again. ${describeError(error)}`, 'error'),
    });

  return (
    <div className="webhook-deliveries" aria-busy={deliveries.isPending || undefined}>
      <div className="form-actions">
        <Button onClick={onSendTest} pending={sendTest.isPending}>
          Send a test event
        </Button>
      </div>
      <div role="status">
        {queued && (
          <p>
            Queued a test event, <code>{queued.id}</code>: it is sent within seconds, and its status
            shows below.
          </p>
        )}
      </div>
      {deliveries.isPending ? (
        <Spinner label="Loading the deliveries…" />
      ) : deliveries.isError ? (
        <div className="alert alert-error" role="alert">
          <p>The deliveries could not be loaded. {describeError(deliveries.error)}</p>
          <Button onClick={() => void deliveries.refetch()}>Try again</Button>
        </div>
      ) : (
        <>
          <DataTable
            caption={`Deliveries to ${webhook.url}`}
            columns={['Event', 'Status', 'Attempts', 'Last answer', 'Next attempt']}
            rows={deliveries.data ?? []}
            empty="No deliveries yet."
          >
            {(delivery) => (
              <tr key={delivery.id}>
                <td>
                  {describeEvent(delivery.event)}
                  <p className="cell-note">
                    <code>{delivery.id}</code> <Time value={delivery.created_at} />
                  </p>
                </td>
                <td>
                  <span className={`delivery-status delivery-status-${delivery.status}`}>
                    {STATUS_WORDS[delivery.status]}
                  </span>
                  {delivery.status === 'failed' && (
                    <Button
                      className="button-small"
                      onClick={() => onRetry(delivery)}
                      pending={retry.isPending && retry.variables === delivery.id}
                    >
                      Retry
                    </Button>
                  )}
                </td>
                <td>{delivery.attempts}</td>
                <td>{lastAnswer(delivery)}</td>
                <td>
                  {delivery.next_attempt_at === null ? (
                    'None'
                  ) : (
                    <>
                      {Date.parse(delivery.next_attempt_at) <= now
                        ? 'Due now'
                        : formatRelative(delivery.next_attempt_at, now)}
                      <p className="cell-note">
                        <Time value={delivery.next_attempt_at} />
                      </p>
                    </>
                  )}
                </td>
              </tr>
            )}
          </DataTable>
          <LoadMore more={deliveries.more} what="deliveries" />
        </>
      )}
    </div>
  );
}
