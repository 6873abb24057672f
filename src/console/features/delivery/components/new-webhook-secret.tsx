import { useEffect, useRef } from 'react';
import type { CreatedWebhook } from '../../../../contract/webhooks';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/form-fields';
import { copyToClipboard } from '../../../lib/clipboard';

export const SECRET_SHOWN_ONCE =
  'Copy this signing secret now: it will not be shown again. Your receiver needs it to check that deliveries come from us.';

/** The signing secret of a webhook just added: shown once, read-only, with Copy. */
export function NewWebhookSecret({
  created,
  onDone,
}: {
  created: CreatedWebhook;
  onDone: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created.id]);

  return (
    <div className="new-key">
      <p>
        Added the webhook to <code>{created.url}</code>.
      </p>
      <TextField
        ref={field}
        label="Signing secret"
        readOnly
        value={created.secret}
        spellCheck={false}
        className="secret"
        onFocus={(event) => event.currentTarget.select()}
        after={
          <Button onClick={() => void copyToClipboard(created.secret, 'Signing secret')}>
            Copy secret
          </Button>
        }
      />
      <p className="warning-text">{SECRET_SHOWN_ONCE}</p>
      <div className="form-actions">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
