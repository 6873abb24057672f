import { useId } from 'react';
import { Button } from '../../../components/button';
import { copyToClipboard } from '../../../lib/clipboard';

/** The snippet as code, with a Copy button named after its key. */
export function ClientSnippetView({ snippet, keyName }: { snippet: string; keyName: string }) {
  const codeId = useId();
  return (
    <div className="client-snippet">
      <pre id={codeId} tabIndex={0} aria-label={`Snippet for ${keyName}`}>
        <code>{snippet}</code>
      </pre>
      <Button
        onClick={() => void copyToClipboard(snippet, 'Snippet')}
        aria-label={`Copy the snippet for ${keyName}`}
        aria-controls={codeId}
      >
        Copy snippet
      </Button>
    </div>
  );
}
