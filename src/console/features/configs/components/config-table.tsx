import type { ConfigSummary } from '../../../../contract/configs';
import { Link } from 'react-router';
import { Time } from '../../../components/time';
import { describeIssueCounts } from '../../../editor/markers';
import { reviewStatusOf } from '../review/review-state';
import { DataTable } from '../../../components/data-table';

interface ConfigTableProps {
  configs: readonly ConfigSummary[];
  canDiscard: boolean;
  canMakeLive: boolean;
  onDiscard: (config: ConfigSummary) => void;
  onMakeLive: (config: ConfigSummary) => void;
  /** What the table says when `configs` is empty. */
  emptyMessage?: string;
}

export function validityOf(
  config: Pick<ConfigSummary, 'valid' | 'error_count' | 'warning_count'>,
): string {
  return config.valid ? 'Valid' : describeIssueCounts(config.error_count, config.warning_count);
}

/**
 * The account's configs. The Live column says "Live" for the live config and holds the row's
 * action otherwise: Make live for an earlier version, Discard for a draft.
 */
export function ConfigTable({
  configs,
  canDiscard,
  canMakeLive,
  onDiscard,
  onMakeLive,
  emptyMessage = 'No configs yet.',
}: ConfigTableProps) {
  return (
    <DataTable
      caption="Configs"
      columns={['Label', 'Kind', 'Revision', 'Validity', 'Review', 'Live', 'Updated']}
      rows={configs}
      empty={emptyMessage}
    >
      {(config) => (
        <tr key={config.id} className={config.live ? 'row-live' : undefined}>
          <td>
            <Link to={`/configs/${encodeURIComponent(config.id)}`}>{config.label}</Link>
          </td>
          <td>{config.kind === 'draft' ? 'Draft' : 'Published'}</td>
          <td>{config.revision}</td>
          <td className={config.valid ? undefined : 'invalid'}>{validityOf(config)}</td>
          <td>{reviewStatusOf(config.review, { short: true })}</td>
          <td>
            {config.live ? (
              <strong>Live</strong>
            ) : config.kind === 'draft' ? (
              canDiscard && (
                <button
                  type="button"
                  className="button button-danger button-small"
                  aria-label={`Discard ${config.label}`}
                  onClick={() => onDiscard(config)}
                >
                  Discard
                </button>
              )
            ) : (
              canMakeLive && (
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Make ${config.label} live`}
                  onClick={() => onMakeLive(config)}
                >
                  Make live
                </button>
              )
            )}
          </td>
          <td>
            <Time value={config.updated_at} />
          </td>
        </tr>
      )}
    </DataTable>
  );
}
