import { useId, useState } from 'react';
import type { AppContents } from '../../../../configs';
import { UnitAssignmentBox } from '../../../ab-test-kit/components/unit-assignment-box';

/**
 * The live config's apps, each with "What does a unit get?". A box is drawn when its app is
 * opened: a config may hold thousands of apps.
 */
export function AppsSection({ apps }: { apps: readonly AppContents[] }) {
  const titleId = useId();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string, isOpen: boolean) =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (isOpen) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Apps</h2>
      {apps.length === 0 ? (
        <p>The live config has no apps yet.</p>
      ) : (
        apps.map((app) => {
          const name = app.name ?? app.id;
          return (
            <details
              key={app.id}
              className="app-details"
              onToggle={(event) => toggle(app.id, event.currentTarget.open)}
            >
              <summary>
                {name} <code>{app.id}</code>
              </summary>
              {open.has(app.id) && (
                <UnitAssignmentBox
                  appId={app.id}
                  title={`What does a unit of ${name} get?`}
                  headingLevel={3}
                />
              )}
            </details>
          );
        })
      )}
    </section>
  );
}
