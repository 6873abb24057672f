/**
 * Review before publishing: the account's policy (no row: the default one), the reviews of
 * each draft, and the review state kept with the draft itself (`configs.review`).
 */
import { DEFAULT_ACCOUNT_POLICY, type AccountPolicy } from '../../../contract/reviews';
import { addAudit } from '../audit/audit-log';
import type { Page, PageRequest } from '../pages';
import type { AuditRecord, ConfigReview, ReviewRecord } from '../records';
import { keysetQuery, readPage, seqKeyOf } from '../sql/keyset';
import { get, insertInto, pick, run, sql, valuesOf, type Op, type Row } from '../sql/sql';

const REVIEW_COLUMNS = [
  'id',
  'account_id',
  'config_id',
  'verdict',
  'body',
  'line',
  'revision',
  'api_key_id',
  'reviewer',
  'at',
];

const GET_POLICY = sql('SELECT * FROM account_policies WHERE account_id = ?');
const SET_POLICY = sql(
  `INSERT INTO account_policies (account_id, approvals_required, reset_approvals_on_edit, updated_at)
   VALUES (?, ?, ?, ?)
   ON CONFLICT (account_id) DO UPDATE SET approvals_required = excluded.approvals_required,
     reset_approvals_on_edit = excluded.reset_approvals_on_edit, updated_at = excluded.updated_at`,
);
const INSERT_REVIEW = insertInto('reviews', REVIEW_COLUMNS);
const LIST_REVIEWS = keysetQuery(
  `SELECT seq, ${REVIEW_COLUMNS.join(', ')} FROM reviews WHERE account_id = ? AND config_id = ?`,
  ['seq'],
  'ASC',
);
const SET_CONFIG_REVIEW = sql('UPDATE configs SET review = ? WHERE account_id = ? AND id = ?');

/** A policy row, or a row with a policy's columns (null when the account has none). */
export function toPolicy(row: Row | undefined): AccountPolicy {
  if (row === undefined || row.approvals_required === null) return DEFAULT_ACCOUNT_POLICY;
  return {
    approvals_required: Number(row.approvals_required),
    reset_approvals_on_edit:
      row.reset_approvals_on_edit === 1 || row.reset_approvals_on_edit === true,
  };
}

export function* getPolicy(accountId: string): Op<AccountPolicy> {
  return toPolicy(yield* get(GET_POLICY, accountId));
}

export function* setPolicy(
  accountId: string,
  policy: AccountPolicy,
  at: string,
  audit: AuditRecord,
): Op<void> {
  yield* run(SET_POLICY, accountId, policy.approvals_required, policy.reset_approvals_on_edit, at);
  yield* addAudit(audit);
}

/** A page of the reviews of a config, oldest first. */
export function* listReviews(
  accountId: string,
  configId: string,
  page: PageRequest,
): Op<Page<ReviewRecord>> {
  return yield* readPage(LIST_REVIEWS, [accountId, configId], page, seqKeyOf, (row) =>
    pick<ReviewRecord>(row, REVIEW_COLUMNS),
  );
}

export function addReview(review: ReviewRecord): Op<number> {
  return run(INSERT_REVIEW, ...valuesOf(review, REVIEW_COLUMNS));
}

export function setConfigReview(accountId: string, id: string, review: ConfigReview): Op<number> {
  return run(SET_CONFIG_REVIEW, JSON.stringify(review), accountId, id);
}
