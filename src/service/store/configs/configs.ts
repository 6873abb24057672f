/**
 * Configs (drafts and published versions), the account's live config and each config's
 * history. Configs change only in units of work (unit-of-work.ts).
 */
import type { Page, PageRequest } from '../pages';
import type {
  ConfigListFilter,
  ConfigRecordRow,
  ConfigSummaryRow,
  HistoryRecord,
  NewConfig,
} from '../records';
import { createdKeyOf, keysetQuery, readPage, seqKeyOf } from '../sql/keyset';
import { all, dialects, get, insertInto, run, sql, valuesOf, type Op, type Row } from '../sql/sql';
import { configListQuery } from './config-list-query';

const NEW_CONFIG_COLUMNS = [
  'id',
  'account_id',
  'kind',
  'label',
  'yaml',
  'revision',
  'base_config_id',
  'valid',
  'error_count',
  'warning_count',
  'issues',
  'created_at',
  'updated_at',
  'published_at',
];
const CONFIG_COLUMNS = [...NEW_CONFIG_COLUMNS, 'closed_at', 'closed_reason', 'review'].join(', ');
const HISTORY_COLUMNS = [
  'account_id',
  'config_id',
  'action',
  'at',
  'revision',
  'summary',
  'api_key_id',
  'api_key_name',
  'actor_email',
  'operations',
  'applied_paths',
  'text_changes',
];

const OPEN_CONFIGS = `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = ? AND closed_at IS NULL`;
const GET_CONFIG = sql(`${OPEN_CONFIGS} AND id = ?`);
/** The open configs among the ids of a JSON list. */
export const GET_CONFIGS = dialects({
  sqlite: `${OPEN_CONFIGS} AND id IN (SELECT value FROM json_each(?))`,
  postgres: `${OPEN_CONFIGS} AND id IN (SELECT json_array_elements_text(?::json))`,
});
const INSERT_CONFIG = insertInto('configs', NEW_CONFIG_COLUMNS);
export const UPDATE_CONFIG = sql(
  'UPDATE configs SET yaml = ?, revision = ?, valid = ?, error_count = ?, warning_count = ?, issues = ?, updated_at = ? WHERE account_id = ? AND id = ?',
);
export const CLOSE_CONFIG = sql(
  'UPDATE configs SET closed_at = ?, closed_reason = ? WHERE account_id = ? AND id = ?',
);
const GET_LIVE = sql('SELECT config_id FROM live_configs WHERE account_id = ?');
const SET_LIVE = sql(
  'INSERT INTO live_configs (account_id, config_id) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET config_id = excluded.config_id',
);
const INSERT_HISTORY = insertInto('history', HISTORY_COLUMNS);
/**
 * The line of a config: itself, the one it was copied from, and so on. Its history is read
 * through it newest first, in one statement a page.
 */
const LINE_HISTORY = keysetQuery(
  `WITH RECURSIVE line (id, base_config_id, depth) AS (
     SELECT id, base_config_id, 0 FROM configs WHERE account_id = ? AND id = ?
     UNION ALL
     SELECT c.id, c.base_config_id, line.depth + 1
       FROM configs c JOIN line ON c.id = line.base_config_id
      WHERE c.account_id = ? AND line.depth < 100000
   )
   SELECT h.* FROM history h
    WHERE h.account_id = ? AND h.config_id IN (SELECT id FROM line)`,
  ['h.seq'],
  'DESC',
);
const HISTORY_AFTER = sql(
  'SELECT * FROM history WHERE account_id = ? AND config_id = ? AND revision > ? ORDER BY seq',
);

/** Booleans are 0/1 in SQLite and booleans in PostgreSQL; JSON columns are text in both. */
export function toConfig(row: Row): ConfigRecordRow {
  return {
    ...(row as unknown as ConfigRecordRow),
    valid: row.valid === 1 || row.valid === true,
    issues: JSON.parse(row.issues as string) as ConfigRecordRow['issues'],
    review:
      typeof row.review === 'string'
        ? (JSON.parse(row.review) as NonNullable<ConfigRecordRow['review']>)
        : null,
  };
}

function toSummary(row: Row): ConfigSummaryRow {
  return {
    ...(row as unknown as ConfigSummaryRow),
    valid: row.valid === 1 || row.valid === true,
    review:
      typeof row.review === 'string'
        ? (JSON.parse(row.review) as NonNullable<ConfigSummaryRow['review']>)
        : null,
  };
}

function toHistory(row: Row): HistoryRecord {
  return {
    config_id: row.config_id as string,
    account_id: row.account_id as string,
    action: row.action as HistoryRecord['action'],
    at: row.at as string,
    revision: row.revision as number,
    summary: (row.summary as string | null) ?? null,
    api_key_id: (row.api_key_id as string | null) ?? null,
    api_key_name: (row.api_key_name as string | null) ?? null,
    actor_email: (row.actor_email as string | null) ?? null,
    operations: JSON.parse(row.operations as string) as HistoryRecord['operations'],
    applied_paths: JSON.parse(row.applied_paths as string) as string[],
    ...(typeof row.text_changes === 'string'
      ? { text_changes: JSON.parse(row.text_changes) as HistoryRecord['text_changes'] }
      : {}),
  };
}

/** A page of the open configs that pass `filter`, newest first, and the live one's id. */
export function* listConfigs(
  accountId: string,
  filter: ConfigListFilter,
  page: PageRequest,
): Op<{ page: Page<ConfigSummaryRow>; liveId: string | undefined }> {
  const { query, params } = configListQuery(filter);
  const configs = yield* readPage(query, [accountId, ...params], page, createdKeyOf, toSummary);
  return { page: configs, liveId: yield* liveIdOf(accountId) };
}

export function* getConfig(accountId: string, id: string): Op<ConfigRecordRow | undefined> {
  const row = yield* get(GET_CONFIG, accountId, id);
  return row && toConfig(row);
}

export function* liveIdOf(accountId: string): Op<string | undefined> {
  return (yield* get(GET_LIVE, accountId))?.config_id as string | undefined;
}

/** A page of the history of a config and the configs it was copied from, newest first. */
export function* history(
  accountId: string,
  configId: string,
  page: PageRequest,
): Op<Page<HistoryRecord>> {
  const params = [accountId, configId, accountId, accountId];
  return yield* readPage(LINE_HISTORY, params, page, seqKeyOf, toHistory);
}

export function* historyAfter(
  accountId: string,
  configId: string,
  revision: number,
): Op<HistoryRecord[]> {
  return (yield* all(HISTORY_AFTER, accountId, configId, revision)).map(toHistory);
}

export function insertConfig(config: NewConfig): Op<number> {
  const issues = JSON.stringify(config.issues);
  return run(INSERT_CONFIG, ...valuesOf({ ...config, issues }, NEW_CONFIG_COLUMNS));
}

export function setLive(accountId: string, configId: string): Op<number> {
  return run(SET_LIVE, accountId, configId);
}

export function addHistory(entry: HistoryRecord): Op<number> {
  const json = {
    operations: JSON.stringify(entry.operations),
    applied_paths: JSON.stringify(entry.applied_paths),
    text_changes: entry.text_changes ? JSON.stringify(entry.text_changes) : null,
  };
  return run(INSERT_HISTORY, ...valuesOf({ ...entry, ...json }, HISTORY_COLUMNS));
}
