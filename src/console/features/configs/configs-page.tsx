import { useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ConfigSummary } from '../../../contract/configs';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { useConfigs } from '../../api/get-configs';
import { ConfigTable } from './components/config-table';
import { DiscardConfigDialog } from './components/discard-config-dialog';
import { MakeLiveDialog } from './components/make-live-dialog';
import { offers } from '../../lib/permissions';
import { waitsForReviewBy } from './list-review';

/** `?review=waiting`: the filter is in the URL, so a reload or a shared link keeps it. */
const WAITING_PARAM = 'review';
const WAITING_VALUE = 'waiting';

/** `/configs`: the live config, drafts and published versions. */
export function ConfigsPage() {
  usePageTitle('Configs');
  const configs = useConfigs();
  const auth = useAuthStatus();
  const heading = useRef<HTMLHeadingElement>(null);
  const listId = useId();
  const filterId = useId();
  const [discarding, setDiscarding] = useState<ConfigSummary | null>(null);
  const [activating, setActivating] = useState<ConfigSummary | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const waitingInUrl = searchParams.get(WAITING_PARAM) === WAITING_VALUE;
  // The router commits search params in a transition, so a box checked only from the URL
  // would flip back until then; it shows what was clicked, and follows the URL when the URL
  // changes by other means (back, a link).
  const [waitingOnly, setWaitingShown] = useState(waitingInUrl);
  const [urlSeen, setUrlSeen] = useState(waitingInUrl);
  if (urlSeen !== waitingInUrl) {
    setUrlSeen(waitingInUrl);
    setWaitingShown(waitingInUrl);
  }
  const setWaitingOnly = (on: boolean) => {
    setWaitingShown(on);
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (on) next.set(WAITING_PARAM, WAITING_VALUE);
        else next.delete(WAITING_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="page">
      <h1 ref={heading} tabIndex={-1}>
        Configs
      </h1>
      <p>
        <Link className="button button-primary" to="/configs/live">
          Open the live config
        </Link>
      </p>
      <section aria-labelledby={listId} aria-busy={configs.isPending || undefined} className="card">
        <h2 id={listId} className="visually-hidden">
          All configs
        </h2>
        <div className="checkbox">
          <input
            id={filterId}
            type="checkbox"
            checked={waitingOnly}
            onChange={(event) => setWaitingOnly(event.target.checked)}
          />
          <label htmlFor={filterId}>Waiting for my review</label>
        </div>
        {configs.isPending ? (
          <Spinner label="Loading the configs…" />
        ) : configs.isError ? (
          <div className="alert alert-error" role="alert">
            <p>The configs could not be loaded. {describeError(configs.error)}</p>
            <Button onClick={() => void configs.refetch()}>Try again</Button>
          </div>
        ) : configs.data === null ? (
          <p>This server does not offer a list of configs (GET /configs).</p>
        ) : (
          <ConfigTable
            configs={
              waitingOnly
                ? configs.data.filter((config) => waitsForReviewBy(config, auth.data))
                : configs.data
            }
            emptyMessage={waitingOnly ? 'No drafts wait for your review.' : undefined}
            canDiscard={offers(auth.data, 'config:write')}
            canMakeLive={offers(auth.data, 'config:publish')}
            onDiscard={setDiscarding}
            onMakeLive={setActivating}
          />
        )}
      </section>
      <DiscardConfigDialog
        config={discarding}
        onClose={() => setDiscarding(null)}
        returnFocus={heading}
      />
      <MakeLiveDialog
        config={activating}
        onClose={() => setActivating(null)}
        returnFocus={heading}
      />
    </div>
  );
}
