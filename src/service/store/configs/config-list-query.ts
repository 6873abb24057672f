/**
 * The config list's statement for a filter: the summary columns of the open configs, with
 * the filter's conditions in SQL so that a page reads only the rows it shows. A review state
 * is worked out from the review's JSON as domain/reviews-state.ts does it from the record.
 */
import type { ConfigListFilter } from '../records';
import { CREATED_KEY, keysetQuery, type KeysetQuery } from '../sql/keyset';

/** What the list reads of a config: never its text or its issues, which may be large. */
const SUMMARY_COLUMNS = [
  'id',
  'account_id',
  'kind',
  'label',
  'revision',
  'base_config_id',
  'valid',
  'error_count',
  'warning_count',
  'created_at',
  'updated_at',
  'published_at',
  'review',
].join(', ');
const OPEN_SUMMARIES = `SELECT ${SUMMARY_COLUMNS} FROM configs WHERE account_id = ? AND closed_at IS NULL`;

type Dialect = 'sqlite' | 'postgres';

/** The verdicts of the draft's review as rows `v`, and a verdict's fields. */
const VERDICTS: Record<Dialect, string> = {
  sqlite: "json_each(configs.review, '$.verdicts') v",
  postgres: "jsonb_array_elements(configs.review::jsonb -> 'verdicts') v",
};
const VERDICT: Record<Dialect, (field: 'verdict' | 'by' | 'revision') => string> = {
  sqlite: (field) => `json_extract(v.value, '$.${field}')`,
  postgres: (field) => (field === 'revision' ? `(v ->> 'revision')::bigint` : `(v ->> '${field}')`),
};

/** The verdicts of one kind that count now: with reset_approvals_on_edit, this revision's. */
function verdicts(dialect: Dialect, verdict: string, anyRevision: boolean): string {
  const field = VERDICT[dialect];
  const revision = anyRevision ? '' : ` AND ${field('revision')} = configs.revision`;
  return `SELECT 1 FROM ${VERDICTS[dialect]} WHERE ${field('verdict')} = '${verdict}'${revision}`;
}

/** Conditions on the review and their parameters, for one dialect. */
function reviewConditions(
  dialect: Dialect,
  review: NonNullable<ConfigListFilter['review']>,
): { text: string; params: unknown[] } {
  if (review.state === 'none') return { text: "(kind <> 'draft' OR review IS NULL)", params: [] };
  const requested = "kind = 'draft' AND review IS NOT NULL";
  const changes = `EXISTS (${verdicts(dialect, 'request_changes', false)})`;
  if (review.state === 'changes_requested')
    return { text: `${requested} AND ${changes}`, params: [] };
  const anyRevision = !review.policy.reset_approvals_on_edit;
  const approvals = `(SELECT COUNT(*) FROM (${verdicts(dialect, 'approve', anyRevision)}) a)`;
  const needed = Math.max(1, review.policy.approvals_required);
  if (review.state === 'approved') {
    return { text: `${requested} AND NOT ${changes} AND ${approvals} >= ?`, params: [needed] };
  }
  const inReview = `${requested} AND NOT ${changes} AND ${approvals} < ?`;
  if (review.state === 'in_review') return { text: inReview, params: [needed] };
  // Waiting for a reviewer: in review, not written by them (its first edit's author, as an
  // approval judges it), and without an approval of theirs that counts.
  const by = `${VERDICT[dialect]('by')} = ?`;
  const author = `(SELECT h.actor_email FROM history h WHERE h.config_id = configs.id AND h.action = 'edit' ORDER BY h.seq LIMIT 1)`;
  return {
    text: `${inReview} AND COALESCE(${author}, '') <> ? AND NOT EXISTS (${verdicts(dialect, 'approve', anyRevision)} AND ${by})`,
    params: [needed, review.reviewer ?? '', review.reviewer ?? ''],
  };
}

/** `%`, `_` and the escape itself stand for themselves in the label search. */
export function likePatternOf(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function selectFor(
  dialect: Dialect,
  filter: ConfigListFilter,
): { text: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.kind !== undefined) {
    conditions.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.review !== undefined) {
    const review = reviewConditions(dialect, filter.review);
    conditions.push(review.text);
    params.push(...review.params);
  }
  if (filter.labelContains !== undefined) {
    // SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE of every letter.
    conditions.push(`label ${dialect === 'sqlite' ? 'LIKE' : 'ILIKE'} ? ESCAPE '\\'`);
    params.push(likePatternOf(filter.labelContains));
  }
  const text = [OPEN_SUMMARIES, ...conditions.map((condition) => `(${condition})`)].join(' AND ');
  return { text, params };
}

/** One statement per shape of filter, made once: a filter's values are parameters. */
const statements = new Map<string, KeysetQuery>();

export function configListQuery(filter: ConfigListFilter): {
  query: KeysetQuery;
  params: unknown[];
} {
  const sqlite = selectFor('sqlite', filter);
  const postgres = selectFor('postgres', filter);
  let query = statements.get(sqlite.text);
  if (query === undefined) {
    query = keysetQuery({ sqlite: sqlite.text, postgres: postgres.text }, CREATED_KEY, 'DESC');
    statements.set(sqlite.text, query);
  }
  return { query, params: sqlite.params };
}
