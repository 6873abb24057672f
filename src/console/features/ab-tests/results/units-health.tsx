/**
 * Units per variant, observed against the share the weights expect, and the test's health:
 * a sample ratio mismatch in words with its likely causes, multiple exposures, mismatches.
 */
import { useId, type ReactNode } from 'react';
import type { ExperimentResults } from '../../../../contract/experiments';
import { DataTable } from '../../../components/data-table';
import { formatCount, formatPercent } from './format';

export function UnitsTable({ results }: { results: ExperimentResults }) {
  const total = results.units.reduce((sum, row) => sum + row.units, 0);
  return (
    <DataTable
      caption="Units per variant"
      showCaption
      columns={['Variant', 'Units', 'Observed share', 'Expected share']}
      rows={results.units}
    >
      {(row) => (
        <tr key={row.variant}>
          <th scope="row">{row.variant}</th>
          <td>{formatCount(row.units)}</td>
          <td>{total === 0 ? '—' : formatPercent(row.units / total)}</td>
          <td>{formatPercent(row.expected_share)}</td>
        </tr>
      )}
    </DataTable>
  );
}

/** A tiny p-value, as the chance it is: "p < 0.0001", "p = 0.00042". */
function srmChance(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toPrecision(2)}`;
}

export function SrmBanner({ results }: { results: ExperimentResults }) {
  const titleId = useId();
  const { health } = results;
  if (!health.srm_warning) return null;
  const total = results.units.reduce((sum, row) => sum + row.units, 0);
  return (
    <section className="alert alert-warning health-banner" aria-labelledby={titleId}>
      <h3 id={titleId}>Sample ratio mismatch</h3>
      <p>
        The units are not split as the weights say:{' '}
        {results.units
          .map(
            (row) =>
              `${row.variant} has ${formatPercent(total === 0 ? 0 : row.units / total)} of them where ${formatPercent(row.expected_share)} was expected`,
          )
          .join(', ')}
        . A split this far off comes by chance less than once in a thousand tests
        {health.srm_p === null ? '' : ` (${srmChance(health.srm_p)})`}: something sends more units
        to some variants than to others, and the results may be biased until it is found.
      </p>
      <p>Likely causes:</p>
      <ul>
        <li>
          The app calls <code>client.variant()</code> for some variants only, or at another moment
          (after a redirect, or where one variant fails to load or crashes).
        </li>
        <li>
          One variant loses its exposures: its page is left before the batch is sent, or its
          requests are blocked.
        </li>
        <li>Bots, caches or a CDN serve one variant more than the other.</li>
        <li>
          Units are filtered after assignment in one variant only (signed-in users, a country).
        </li>
      </ul>
    </section>
  );
}

/** Multiple exposures (at 1% and more) and assignment mismatches (any), each in words. */
export function HealthNotes({ results }: { results: ExperimentResults }) {
  const { health } = results;
  const exposed =
    results.units.reduce((sum, row) => sum + row.units, 0) + health.multiple_exposures;
  const notes: { key: string; text: ReactNode }[] = [];
  if (health.multiple_exposures_warning) {
    notes.push({
      key: 'multiple',
      text: (
        <>
          {formatCount(health.multiple_exposures)} units saw more than one variant
          {exposed > 0
            ? ` (${formatPercent(health.multiple_exposures / exposed)} of them)`
            : ''}{' '}
          and are left out of the results. Does the unit id change between calls, e.g. an anonymous
          id and then the signed-in user&rsquo;s?
        </>
      ),
    });
  }
  if (health.mismatches > 0) {
    notes.push({
      key: 'mismatches',
      text: (
        <>
          {formatCount(health.mismatches)}{' '}
          {health.mismatches === 1 ? 'exposure names' : 'exposures name'} a variant other than the
          one the test assigns the unit, and {health.mismatches === 1 ? 'is' : 'are'} not counted.
          Does the app choose variants itself instead of taking <code>client.variant()</code>
          &rsquo;s answer?
        </>
      ),
    });
  }
  if (notes.length === 0) return null;
  return (
    <ul className="health-notes" aria-label="Health notes">
      {notes.map((note) => (
        <li key={note.key}>{note.text}</li>
      ))}
    </ul>
  );
}
