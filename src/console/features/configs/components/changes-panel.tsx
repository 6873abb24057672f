import { Suspense, useId } from 'react';
import { Spinner } from '../../../components/spinner';
import { DiffView } from '../../../editor/lazy-monaco';

interface ChangesPanelProps {
  id: string;
  /** What the edit is compared with; null while it loads, undefined when it is not there. */
  baseText: string | null | undefined;
  baseLabel: string;
  /** The editor's model: the diff follows the typing. */
  modelPath: string;
  dark: boolean;
}

/** "Changes": Monaco's diff editor, the base on the left, the editor's text on the right. */
export function ChangesPanel({ id, baseText, baseLabel, modelPath, dark }: ChangesPanelProps) {
  const titleId = useId();
  return (
    <section id={id} className="card changes" aria-labelledby={titleId}>
      <h2 id={titleId}>Changes</h2>
      {baseText === null ? (
        <Spinner label="Loading the changes…" />
      ) : baseText === undefined ? (
        <p>The config this one came from is not available to compare with.</p>
      ) : (
        <>
          <p className="muted">Against {baseLabel}, on the left.</p>
          <Suspense fallback={<Spinner label="Loading the changes…" />}>
            <DiffView
              original={baseText}
              modified={{ modelPath }}
              label={`Changes against ${baseLabel}`}
              dark={dark}
            />
          </Suspense>
        </>
      )}
    </section>
  );
}
