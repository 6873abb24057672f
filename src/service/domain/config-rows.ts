/**
 * The rows and records of configs as the store keeps them and the API shows them: what a
 * unit of work inserts, its history entry, and a stored row as a ConfigRecord.
 */
import type { ConfigKind } from '../../contract/config-edit';
import type { ConfigRecord, ConfigSummary, HistoryEntry } from '../../contract/configs';
import type { Operation, TextChange } from '../../contract/operations';
import type { AccountPolicy } from '../../contract/reviews';
import type { ValidationReport } from '../../contract/validation';
import type { ConfigRecordRow, HistoryRecord, Principal } from '../store/records';
import { reviewStateOf } from './reviews-state';

export function reportColumns(report: ValidationReport) {
  return {
    valid: report.valid,
    error_count: report.error_count,
    warning_count: report.warning_count,
    issues: report.issues,
  };
}

export function newRow(input: {
  id: string;
  kind: ConfigKind;
  label: string;
  report: ValidationReport;
  base: string;
  at: string;
  published: boolean;
}) {
  return {
    id: input.id,
    kind: input.kind,
    label: input.label,
    yaml: input.report.yaml ?? '',
    revision: 1,
    base_config_id: input.base,
    ...reportColumns(input.report),
    created_at: input.at,
    updated_at: input.at,
    published_at: input.published ? input.at : null,
    review: null,
  };
}

export function history(
  principal: Principal,
  configId: string,
  action: HistoryRecord['action'],
  at: string,
  revision: number,
  summary: string | null,
  operations: readonly Operation[],
  appliedPaths: readonly string[],
  textChanges?: readonly TextChange[],
): HistoryRecord {
  return {
    account_id: principal.account.id,
    config_id: configId,
    action,
    at,
    revision,
    summary,
    api_key_id: principal.key?.id ?? null,
    api_key_name: principal.key?.name ?? null,
    actor_email: principal.user.email,
    operations,
    applied_paths: appliedPaths,
    ...(textChanges ? { text_changes: textChanges } : {}),
    ip: principal.ip ?? null,
  };
}

/** The report of a stored config, from its stored issues: no parse needed. */
export function storedReport(
  row: Pick<ConfigRecordRow, 'yaml' | 'issues' | 'kind' | 'label'>,
): ValidationReport {
  const errors = row.issues.filter((issue) => issue.severity !== 'warning').length;
  return {
    valid: errors === 0,
    error_count: errors,
    warning_count: row.issues.length - errors,
    issues: [...row.issues],
    yaml: row.yaml,
    source: { type: row.kind, name: row.label },
  };
}

/** A stored row's fields as every view of a config shows them. */
type StoredConfig = Omit<
  ConfigRecordRow,
  'account_id' | 'closed_at' | 'closed_reason' | 'yaml' | 'issues'
>;

function recordFieldsOf(row: StoredConfig, liveId: string | undefined, policy: AccountPolicy) {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    revision: row.revision,
    live: row.id === liveId,
    base_config_id: row.base_config_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.published_at ? { published_at: row.published_at } : {}),
    review: reviewStateOf(row, policy),
  };
}

export function toRecord(
  row: ConfigRecordRow,
  liveId: string | undefined,
  policy: AccountPolicy,
): ConfigRecord {
  return { ...recordFieldsOf(row, liveId, policy), yaml: row.yaml, validation: storedReport(row) };
}

/** A stored row as `GET /configs` lists it. */
export function toSummary(
  row: StoredConfig,
  liveId: string | undefined,
  policy: AccountPolicy,
): ConfigSummary {
  return {
    ...recordFieldsOf(row, liveId, policy),
    valid: row.valid,
    error_count: row.error_count,
    warning_count: row.warning_count,
  };
}

export function toHistoryEntry(record: HistoryRecord): HistoryEntry {
  return {
    at: record.at,
    action: record.action,
    config_id: record.config_id,
    revision: record.revision,
    ...(record.summary !== null ? { summary: record.summary } : {}),
    ...(record.api_key_id !== null ? { api_key_id: record.api_key_id } : {}),
    ...(record.api_key_name !== null ? { api_key_name: record.api_key_name } : {}),
    ...(record.actor_email !== null ? { actor_email: record.actor_email } : {}),
    operations: [...record.operations],
    applied_paths: [...record.applied_paths],
  };
}
