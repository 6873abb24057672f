import { useEffect, useRef } from 'react';
import type { ClientKey } from '../../../../contract/delivery';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/form-fields';
import { copyToClipboard } from '../../../lib/clipboard';
import { ClientSnippetView } from './client-snippet-view';

/** A client key just created, with its snippet. It stays in the list: it is not a secret. */
export function NewClientKey({
  created,
  snippet,
  onDone,
}: {
  created: ClientKey;
  snippet: string;
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
        Created <strong>{created.name}</strong>. Build it into your apps: it only reads their live
        settings, so it is not a secret.
      </p>
      <TextField
        ref={field}
        label="New client key"
        readOnly
        value={created.key}
        spellCheck={false}
        className="secret"
        onFocus={(event) => event.currentTarget.select()}
        after={
          <Button onClick={() => void copyToClipboard(created.key, 'Client key')}>Copy key</Button>
        }
      />
      <ClientSnippetView snippet={snippet} keyName={created.name} />
      <div className="form-actions">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
