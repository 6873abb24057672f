import { Link } from 'react-router';
import type { AbTestContents } from '../../../../configs';
import { deepEqual } from '../../../../configs/data';
import { Time } from '../../../components/time';
import { LIVE } from '../../../api/get-config';
import type { ConfigWithContents } from '../../../api/get-config-contents';
import { testPath } from '../test-path';
import { DataTable } from '../../../components/data-table';

export const STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  running: 'Running',
  ended: 'Ended',
  promoted: 'Promoted',
};

export function statusLabel(status: string | null): string {
  return status === null ? 'No status' : (STATUS_LABELS[status] ?? status);
}

/** "button_size: large, max: 3"; empty for none. */
export function describeOverrides(settings: Readonly<Record<string, unknown>>): string {
  return Object.entries(settings)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ');
}

/** Each variant with its weight and setting overrides: "big 50 (button_size: large)". */
export function VariantWeights({ test }: { test: AbTestContents }) {
  return (
    <ul className="variant-summary">
      {test.variants.map((variant) => {
        const overrides = describeOverrides(variant.settings);
        return (
          <li key={variant.id}>
            {variant.id} {variant.weight ?? '?'}
            {overrides && <span className="muted"> ({overrides})</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** Where a test lives: the live config, or a draft. */
export function configOf(source: ConfigWithContents): {
  path: string;
  routeId: string;
  text: string;
} {
  const { config } = source;
  const live = config.live;
  return {
    path: `/configs/${encodeURIComponent(config.id)}`,
    // Tests of the live config are addressed through `live`, so their page survives a step
    // (each step publishes a new live version with a new id).
    routeId: live ? LIVE : config.id,
    text: live ? `Live: ${config.label}` : `Draft: ${config.label}`,
  };
}

interface AbTestTableProps {
  sources: readonly ConfigWithContents[];
}

/** A test as the config holds it, without where it sits in the list. */
function testData({ index: _index, ...test }: AbTestContents): Omit<AbTestContents, 'index'> {
  return test;
}

/**
 * The tests of the live config, then those of each draft that the draft adds or changes: a
 * draft starts as a copy of the live config, and its unchanged copies would only repeat.
 */
export function testRows(sources: readonly ConfigWithContents[]) {
  const liveTests = new Map(
    (sources.find((source) => source.config.live)?.contents?.abTests ?? []).map((test) => [
      test.id,
      testData(test),
    ]),
  );
  return sources.flatMap((source) =>
    (source.contents?.abTests ?? [])
      .filter((test) => {
        if (source.config.live) return true;
        const live = liveTests.get(test.id);
        return live === undefined || !deepEqual(live, testData(test));
      })
      .map((test) => ({ source, test })),
  );
}

/** Every test of the live config, and what the drafts add or change, one row each. */
export function AbTestTable({ sources }: AbTestTableProps) {
  const rows = testRows(sources);
  return (
    <DataTable
      caption="A/B tests"
      columns={[
        'Test',
        'Status',
        'App',
        'Variants and weights',
        'Config',
        'Started',
        'Ended',
        'Winner',
      ]}
      rows={rows}
      empty="No A/B tests yet."
    >
      {({ source, test }) => {
        const where = configOf(source);
        return (
          <tr key={`${source.config.id} ${test.id}`}>
            <th scope="row">
              <Link to={testPath(where.routeId, test.id)}>{test.id}</Link>
              {test.description && <p className="muted cell-note">{test.description}</p>}
            </th>
            <td>
              <span className={`status status-${test.status ?? 'none'}`}>
                {statusLabel(test.status)}
              </span>
            </td>
            <td>{test.app ?? '—'}</td>
            <td>
              <VariantWeights test={test} />
            </td>
            <td>
              <Link to={where.path}>{where.text}</Link>
            </td>
            <td>{test.startedAt ? <Time value={test.startedAt} /> : '—'}</td>
            <td>{test.endedAt ? <Time value={test.endedAt} /> : '—'}</td>
            <td>{test.winner ?? '—'}</td>
          </tr>
        );
      }}
    </DataTable>
  );
}
