/**
 * `/configs/:id/compare`: this config against another environment's live config, item by
 * item (a table per app and A/B test, and Monaco's diff of the two texts), and the choice of
 * items to promote: "Create draft in Production" makes a draft there, which then goes
 * through that environment's review and publish.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Suspense, useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { Account } from '../../../contract/environments';
import { ACCOUNT_HEADER } from '../../../contract/request-headers';
import type { PromotionPreview } from '../../../contract/promotions';
import { useAccounts, useCurrentEnvironment, typeLabel } from '../../api/accounts';
import { useConfig } from '../../api/get-config';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { DiffView } from '../../editor/lazy-monaco';
import { useDarkScheme } from '../../editor/use-dark-scheme';
import { apiRequest, describeError } from '../../lib/api-client';
import { usePageTitle } from '../../lib/page-title';
import { configEndpoints } from '../../../contract/config-endpoints';
import { environmentEndpoints } from '../../../contract/environment-endpoints';

type Item = PromotionPreview['differences'][number]['item'];

const keyOf = (item: Item) => ('app' in item ? `app:${item.app}` : `ab_test:${item.ab_test}`);
const nameOf = (item: Item) => ('app' in item ? `App ${item.app}` : `A/B test ${item.ab_test}`);
const shown = (value: unknown) =>
  value === null || value === undefined ? '(none)' : JSON.stringify(value);

export function ComparePage() {
  const { id = '' } = useParams();
  const config = useConfig(id);
  const accounts = useAccounts().data;
  const current = useCurrentEnvironment();
  const others = accounts?.filter((account) => account.id !== current?.id) ?? [];
  const [chosenId, setChosenId] = useState('');
  const target = others.find((account) => account.id === chosenId) ?? others[0];
  const selectId = useId();
  usePageTitle(`Compare ${config.data?.label ?? id}`);

  return (
    <div className="page">
      <h1>Compare {config.data?.label ?? id} with another environment</h1>
      <p>
        <Link to={`/configs/${id}`}>Back to the config</Link>
      </p>
      {!accounts || !current || !config.data ? (
        <Spinner label="Loading…" />
      ) : others.length === 0 ? (
        <p>This organization has no other environment to compare with.</p>
      ) : (
        <>
          <p className="field">
            <label htmlFor={selectId}>Compare with</label>
            <select
              id={selectId}
              value={target?.id}
              onChange={(event) => setChosenId(event.target.value)}
            >
              {others.map((account) => (
                <option key={account.id} value={account.id}>
                  {account.name} ({typeLabel(account.account_type)})
                </option>
              ))}
            </select>
          </p>
          {target && (
            <Comparison
              key={target.id}
              source={current}
              target={target}
              configId={id}
              revision={config.data.revision}
              text={config.data.yaml}
            />
          )}
        </>
      )}
    </div>
  );
}

// Asked as the target: a promotion writes there.
function previewQuery(from: string, configId: string, revision: number, to: string) {
  return queryOptions({
    queryKey: ['promotions', 'preview', from, configId, revision, to] as const,
    queryFn: ({ signal }) =>
      apiRequest(environmentEndpoints.previewPromotion, {
        body: { from_account: from, to_account: to, from_config: configId },
        headers: { [ACCOUNT_HEADER]: to },
        signal,
      }),
  });
}

function liveOfQuery(accountId: string) {
  return queryOptions({
    queryKey: ['promotions', 'live', accountId] as const,
    queryFn: ({ signal }) =>
      apiRequest(configEndpoints.getLiveConfig, {
        headers: { [ACCOUNT_HEADER]: accountId },
        signal,
      }),
  });
}

interface ComparisonProps {
  readonly source: Account;
  readonly target: Account;
  readonly configId: string;
  readonly revision: number;
  readonly text: string;
}

function Comparison({ source, target, configId, revision, text }: ComparisonProps) {
  const dark = useDarkScheme();
  const request = { from_account: source.id, to_account: target.id, from_config: configId };
  const preview = useQuery(previewQuery(source.id, configId, revision, target.id));
  const targetLive = useQuery(liveOfQuery(target.id));

  if (preview.isError) {
    return (
      <p role="alert" className="alert alert-error">
        The comparison could not be made. {describeError(preview.error)}
      </p>
    );
  }
  if (!preview.data) return <Spinner label="Comparing…" />;
  return (
    <>
      <ItemTable preview={preview.data} source={source} target={target} request={request} />
      <h2>The two texts</h2>
      {targetLive.data ? (
        <Suspense fallback={<Spinner label="Loading the changes…" />}>
          <DiffView
            original={targetLive.data.yaml}
            modified={{ text }}
            label={`${target.name}'s live config against this config`}
            dark={dark}
            height="24rem"
          />
        </Suspense>
      ) : targetLive.isError ? (
        <p role="alert" className="alert alert-error">
          {target.name}&apos;s live config could not be loaded. {describeError(targetLive.error)}
        </p>
      ) : (
        <Spinner label="Loading the changes…" />
      )}
    </>
  );
}

interface ItemTableProps {
  readonly preview: PromotionPreview;
  readonly source: Account;
  readonly target: Account;
  readonly request: { from_account: string; to_account: string; from_config: string };
}

function ItemTable({ preview, source, target, request }: ItemTableProps) {
  const items = new Map<string, { item: Item; rows: PromotionPreview['differences'] }>();
  for (const difference of preview.differences) {
    const key = keyOf(difference.item);
    const entry = items.get(key) ?? { item: difference.item, rows: [] };
    entry.rows.push(difference);
    items.set(key, entry);
  }
  const blocked = new Map(preview.not_promotable.map((entry) => [keyOf(entry.item), entry.reason]));
  const promotable = [...items.keys()].filter((key) => !blocked.has(key));
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [summary, setSummary] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [mistake, setMistake] = useState<string | null>(null);
  const summaryId = useId();
  const chosen = promotable.filter((key) => !unchecked.has(key));

  if (items.size === 0) {
    return <p>This config and {target.name}&apos;s live config hold the same apps and tests.</p>;
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (summary.trim() === '') {
      setMistake('Name the draft.');
      return;
    }
    if (chosen.length === 0) {
      setMistake('Choose at least one item to promote.');
      return;
    }
    setMistake(null);
    setPending(true);
    setFailure(null);
    try {
      const draft = await apiRequest(environmentEndpoints.createPromotion, {
        body: {
          ...request,
          summary: summary.trim(),
          items: chosen.map((key) => (items.get(key) as { item: Item }).item),
        },
        headers: { [ACCOUNT_HEADER]: target.id },
      });
      setMade(draft.id);
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <table className="data-table">
        <caption>
          What differs, {source.name} (this config) against {target.name}
        </caption>
        <thead>
          <tr>
            <th scope="col">Promote</th>
            <th scope="col">Item</th>
            <th scope="col">Field</th>
            <th scope="col">This config</th>
            <th scope="col">{target.name}</th>
          </tr>
        </thead>
        <tbody>
          {[...items.entries()].flatMap(([key, { item, rows }]) =>
            rows.map((row, index) => (
              <tr key={`${key} ${row.path}`}>
                {index === 0 && (
                  <td rowSpan={rows.length}>
                    {blocked.has(key) ? (
                      <span className="warning-text">{blocked.get(key)}</span>
                    ) : (
                      <input
                        type="checkbox"
                        aria-label={`Promote ${nameOf(item)}`}
                        checked={!unchecked.has(key)}
                        onChange={(event) => {
                          const next = new Set(unchecked);
                          if (event.target.checked) next.delete(key);
                          else next.add(key);
                          setUnchecked(next);
                        }}
                      />
                    )}
                  </td>
                )}
                {index === 0 && (
                  <th scope="rowgroup" rowSpan={rows.length}>
                    {nameOf(item)}
                  </th>
                )}
                <td>{row.path === '' ? '(the whole item)' : <code>{row.path}</code>}</td>
                <td>
                  <code>{shown(row.source)}</code>
                </td>
                <td>
                  <code>{shown(row.target)}</code>
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <p className="field">
        <label htmlFor={summaryId}>Draft name</label>
        <input
          id={summaryId}
          value={summary}
          maxLength={200}
          onChange={(event) => setSummary(event.target.value)}
        />
      </p>
      {mistake && (
        <p role="alert" className="alert alert-error">
          {mistake}
        </p>
      )}
      {failure !== null && (
        <p role="alert" className="alert alert-error">
          The draft was not created. {describeError(failure)}
        </p>
      )}
      {made ? (
        <p role="status" className="alert alert-success">
          A draft was created in {target.name}.{' '}
          <a href={`/a/${encodeURIComponent(target.id)}/configs/${encodeURIComponent(made)}`}>
            Open the draft in {target.name}
          </a>
        </p>
      ) : (
        <Button type="submit" variant="primary" pending={pending}>
          Create draft in {target.name}
        </Button>
      )}
    </form>
  );
}
