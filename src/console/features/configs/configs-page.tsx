import { useEffect, useId, useRef, useState } from 'react';
import { AccountSchedules } from './components/account-schedules';
import { Link, useSearchParams } from 'react-router';
import {
  CONFIG_REVIEW_FILTERS,
  MAX_CONFIG_SEARCH_LENGTH,
  type ConfigReviewFilter,
  type ConfigSummary,
} from '../../../contract/configs';
import { Button } from '../../components/button';
import { LoadMore } from '../../components/load-more';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { useConfigPages, type ConfigFilters } from './api/list-configs';
import { ConfigTable } from './components/config-table';
import { DiscardConfigDialog } from './components/discard-config-dialog';
import { MakeLiveDialog } from './components/make-live-dialog';
import { offers } from '../../lib/permissions';

/** How long typing rests before the search goes to the server. */
export const SEARCH_DELAY_MS = 300;

const KIND_WORDS = { '': 'All', draft: 'Drafts', published: 'Published versions' } as const;
const REVIEW_WORDS: Record<ConfigReviewFilter | '', string> = {
  '': 'Any',
  waiting_for_me: 'Waiting for me',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  none: 'Not requested',
};

function isReviewFilter(value: string): value is ConfigReviewFilter {
  return (CONFIG_REVIEW_FILTERS as readonly string[]).includes(value);
}

/** The filters a URL names (`?q=…&kind=…&review=…`); `review=waiting` is an older link's. */
function filtersOf(params: URLSearchParams): ConfigFilters {
  const kind = params.get('kind');
  const review = params.get('review') === 'waiting' ? 'waiting_for_me' : params.get('review');
  const q = params.get('q')?.trim();
  return {
    ...(kind === 'draft' || kind === 'published' ? { kind } : {}),
    ...(review !== null && isReviewFilter(review) ? { review } : {}),
    ...(q ? { q: q.slice(0, MAX_CONFIG_SEARCH_LENGTH) } : {}),
  };
}

function searchOf(filters: ConfigFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.review) params.set('review', filters.review);
  return params;
}

/**
 * The filters, in the URL so that a reload or a shared link keeps them. The router commits
 * search params in a transition, so the page shows what was chosen at once and follows the
 * URL when it changes by other means (back, a link).
 */
function useFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const inUrl = filtersOf(searchParams);
  const urlKey = searchOf(inUrl).toString();
  const [filters, setFilters] = useState(inUrl);
  const [seen, setSeen] = useState(urlKey);
  if (seen !== urlKey) {
    setSeen(urlKey);
    setFilters(inUrl);
  }
  const change = (next: ConfigFilters) => {
    setFilters(next);
    setSeen(searchOf(next).toString());
    setSearchParams(searchOf(next), { replace: true });
  };
  return [filters, change] as const;
}

function emptyMessageOf(filters: ConfigFilters): string | undefined {
  if (filters.review === 'waiting_for_me' && !filters.q && !filters.kind) {
    return 'No drafts wait for your review.';
  }
  return filters.review || filters.kind || filters.q ? 'No configs match.' : undefined;
}

/** `/configs`: the live config, drafts and published versions, newest first, page by page. */
export function ConfigsPage() {
  usePageTitle('Configs');
  const [filters, setFilters] = useFilters();
  const configs = useConfigPages(filters);
  const auth = useAuthStatus();
  const heading = useRef<HTMLHeadingElement>(null);
  const listId = useId();
  const searchId = useId();
  const kindId = useId();
  const reviewId = useId();
  const [discarding, setDiscarding] = useState<ConfigSummary | null>(null);
  const [activating, setActivating] = useState<ConfigSummary | null>(null);

  // The search box shows what is typed; the server is asked once typing rests.
  const [text, setText] = useState(filters.q ?? '');
  const [searched, setSearched] = useState(filters.q ?? '');
  if (searched !== (filters.q ?? '')) {
    setSearched(filters.q ?? '');
    if (text.trim() !== (filters.q ?? '')) setText(filters.q ?? '');
  }
  useEffect(() => {
    const q = text.trim().slice(0, MAX_CONFIG_SEARCH_LENGTH);
    if (q === (filters.q ?? '')) return;
    const timer = window.setTimeout(() => {
      const { q: _q, ...rest } = filters;
      setFilters(q ? { ...rest, q } : rest);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text, filters, setFilters]);

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
      <AccountSchedules />
      <section
        aria-labelledby={listId}
        aria-busy={configs.isFetching || undefined}
        className="card"
      >
        <h2 id={listId} className="visually-hidden">
          All configs
        </h2>
        <div className="list-filters" role="search" aria-label="Find configs">
          <div className="field">
            <label htmlFor={searchId}>Search configs</label>
            <input
              id={searchId}
              type="search"
              value={text}
              maxLength={MAX_CONFIG_SEARCH_LENGTH}
              placeholder="Part of a label"
              autoComplete="off"
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={kindId}>Kind</label>
            <select
              id={kindId}
              value={filters.kind ?? ''}
              onChange={(event) => {
                const { kind: _kind, ...rest } = filters;
                const kind = event.target.value;
                setFilters(kind === 'draft' || kind === 'published' ? { ...rest, kind } : rest);
              }}
            >
              {Object.entries(KIND_WORDS).map(([value, words]) => (
                <option key={value} value={value}>
                  {words}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={reviewId}>Review</label>
            <select
              id={reviewId}
              value={filters.review ?? ''}
              onChange={(event) => {
                const { review: _review, ...rest } = filters;
                const review = event.target.value;
                setFilters(isReviewFilter(review) ? { ...rest, review } : rest);
              }}
            >
              {Object.entries(REVIEW_WORDS).map(([value, words]) => (
                <option key={value} value={value}>
                  {words}
                </option>
              ))}
            </select>
          </div>
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
          <>
            <ConfigTable
              configs={configs.data ?? []}
              emptyMessage={emptyMessageOf(filters)}
              canDiscard={offers(auth.data, 'config:write')}
              canMakeLive={offers(auth.data, 'config:publish')}
              onDiscard={setDiscarding}
              onMakeLive={setActivating}
            />
            <LoadMore more={configs.more} what="configs" />
          </>
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
