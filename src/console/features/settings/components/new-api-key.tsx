import { useEffect, useRef } from 'react';
import type { CreatedApiKey } from '../../../../contract/api-keys';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/form-fields';
import { copyToClipboard } from '../../../lib/clipboard';

/** The secret of a key just created: shown once, with a copy button and a plain warning. */
export function NewApiKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created.id]);

  return (
    <div className="new-key">
      <p>
        Created <strong>{created.name}</strong>.
      </p>
      <TextField
        ref={field}
        label="New API key"
        readOnly
        value={created.secret}
        spellCheck={false}
        className="secret"
        onFocus={(event) => event.currentTarget.select()}
        after={
          <Button onClick={() => void copyToClipboard(created.secret, 'Key')}>Copy key</Button>
        }
      />
      <p className="warning-text">Copy this key now: it will not be shown again.</p>
      <div className="form-actions">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
