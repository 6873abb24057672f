import type { Webhook } from '../../../../contract/webhooks';
import { Time } from '../../../components/time';
import { describeEvent } from '../webhook-events';
import { DataTable } from '../../../components/data-table';

/** The account's webhook endpoints, each with Delete. */
export function WebhookTable({
  webhooks,
  onDelete,
}: {
  webhooks: readonly Webhook[];
  onDelete: (webhook: Webhook) => void;
}) {
  return (
    <DataTable
      caption="Webhooks"
      columns={[
        'URL',
        'Events',
        'Description',
        'Created',
        <span className="visually-hidden">Actions</span>,
      ]}
      rows={webhooks}
      empty="No webhooks yet."
    >
      {(webhook) => (
        <tr key={webhook.id}>
          <td>
            <code className="webhook-url">{webhook.url}</code>
          </td>
          <td>
            <ul className="event-list">
              {webhook.events.map((event) => (
                <li key={event}>
                  {describeEvent(event)} <code>{event}</code>
                </li>
              ))}
            </ul>
          </td>
          <td>{webhook.description}</td>
          <td>
            <Time value={webhook.created_at} />
          </td>
          <td>
            <button
              type="button"
              className="button button-danger button-small"
              onClick={() => onDelete(webhook)}
              aria-label={`Delete the webhook to ${webhook.url}`}
            >
              Delete
            </button>
          </td>
        </tr>
      )}
    </DataTable>
  );
}
