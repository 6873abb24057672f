import type { Webhook } from '../../../../contract/webhooks';
import { Time } from '../../../components/time';
import { describeEvent } from '../webhook-events';

/** The account's webhook endpoints, each with Delete. */
export function WebhookTable({
  webhooks,
  onDelete,
}: {
  webhooks: readonly Webhook[];
  onDelete: (webhook: Webhook) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Webhooks</caption>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Description</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {webhooks.length === 0 && (
            <tr>
              <td colSpan={5}>No webhooks yet.</td>
            </tr>
          )}
          {webhooks.map((webhook) => (
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
          ))}
        </tbody>
      </table>
    </div>
  );
}
