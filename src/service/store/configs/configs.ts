/**
 * Configs (drafts and published versions), the account's live config and each config's
 * history. Configs change only in units of work (unit-of-work.ts).
 */
import type { ConfigKind } from '../../../contract/config-edit';
import type { Page, PageRequest } from '../pages';
import type { ConfigRecordRow, ConfigSummaryRow, HistoryRecord, NewConfig } from '../records';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage, type KeysetQuery } from '../sql/keyset';
import { PACK_FROM_BYTES, type TextMemo } from './stored-text';
import { all, dialects, get, insertInto, run, sql, valuesOf, type Op, type Row } from '../sql/sql';

const NEW_CONFIG_COLUMNS = [
  'id',
  'account_id',
  'kind',
  'label',
  'yaml',
  'yaml_packed',
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
  'entry_packed',
];

const OPEN_CONFIGS = `SELECT ${CONFIG_COLUMNS} FROM configs WHERE account_id = ? AND closed_at IS NULL`;
/** A list shows no text and no issues: those columns are never read (nor inflated) for it. */
const SUMMARY_COLUMNS = [
  ...NEW_CONFIG_COLUMNS.filter(
    (column) => column !== 'yaml' && column !== 'yaml_packed' && column !== 'issues',
  ),
  'review',
].join(', ');
/**
 * Open configs newest first, by kind and review (`none`: no review asked; `requested`: a
 * draft whose review was asked for); a null filter takes all. The label's filter follows.
 */
const listFilters = (cast: string, from = 'configs', columns = SUMMARY_COLUMNS) =>
  `SELECT ${columns} FROM ${from} WHERE account_id = ? AND closed_at IS NULL
     AND (?${cast} IS NULL OR kind = ?)
     AND (?${cast} IS NULL OR (? = 'none' AND (review IS NULL OR kind = 'published'))
          OR (? = 'requested' AND kind = 'draft' AND review IS NOT NULL))`;
const LABEL_LIKE = {
  sqlite: `${listFilters('')} AND (? IS NULL OR label LIKE ? ESCAPE '\\')`,
  postgres: `${listFilters('::text')} AND (?::text IS NULL OR label ILIKE ? ESCAPE '\\')`,
};
/** With a LIKE pattern on the label, or null for every label. */
const LIST_CONFIGS = keysetQuery(LABEL_LIKE, CREATED_KEY, 'DESC');
/** The same, among the configs from a key (the window's end) on. */
const LIST_CONFIGS_IN_WINDOW = keysetQuery(
  {
    sqlite: `${LABEL_LIKE.sqlite} AND (created_at, id) >= (?, ?)`,
    postgres: `${LABEL_LIKE.postgres} AND (created_at, id) >= (?, ?)`,
  },
  CREATED_KEY,
  'DESC',
);
/** The key of the open config `offset` places after the newest, or after a key. */
const WINDOW_END_SELECT =
  'SELECT created_at, id FROM configs WHERE account_id = ? AND closed_at IS NULL';
const WINDOW_END_ORDER = 'ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?';
const WINDOW_END = {
  first: sql(`${WINDOW_END_SELECT} ${WINDOW_END_ORDER}`),
  after: sql(`${WINDOW_END_SELECT} AND (created_at, id) < (?, ?) ${WINDOW_END_ORDER}`),
};
/**
 * The same, for a searched text of three characters or more (the term, then its LIKE
 * pattern), through the label's trigram index. SQLite's FTS5 table holds each label under
 * its config's rowid and reads matches newest first, stopping once the page is full (it
 * folds case more widely than LIKE, so LIKE has the last word); its pages follow the order
 * configs were stored in, the cursor's config giving the rowid to go on below. PostgreSQL's
 * pg_trgm index serves ILIKE itself but hands over every match unordered, to be sorted.
 */
const SEARCH_FROM =
  'configs_label_search CROSS JOIN configs ON configs.rowid = configs_label_search.rowid';
const SQLITE_SEARCH = `${listFilters(
  '',
  SEARCH_FROM,
  SUMMARY_COLUMNS.split(', ')
    .map((column) => `configs.${column}`)
    .join(', '),
)}
     AND configs_label_search MATCH '"' || replace(?, '"', '""') || '"'
     AND configs.label LIKE ? ESCAPE '\\'`;
const SQLITE_SEARCH_ORDER = 'ORDER BY configs_label_search.rowid DESC LIMIT ?';
const POSTGRES_SEARCH = `${listFilters('::text')}
     AND position(lower(?::text) IN lower(label)) > 0 AND label ILIKE ? ESCAPE '\\'`;
const POSTGRES_SEARCH_ORDER = 'ORDER BY created_at DESC, id DESC LIMIT ?';
export const LIST_CONFIGS_BY_TRIGRAMS: KeysetQuery = {
  first: dialects({
    sqlite: `${SQLITE_SEARCH} ${SQLITE_SEARCH_ORDER}`,
    postgres: `${POSTGRES_SEARCH} ${POSTGRES_SEARCH_ORDER}`,
  }),
  after: dialects({
    sqlite: `${SQLITE_SEARCH}
     AND configs_label_search.rowid < (SELECT rowid FROM configs WHERE created_at = ? AND id = ?)
     ${SQLITE_SEARCH_ORDER}`,
    postgres: `${POSTGRES_SEARCH} AND (created_at, id) < (?, ?) ${POSTGRES_SEARCH_ORDER}`,
  }),
};
/** A trigram index finds nothing shorter than a trigram: shorter texts are searched by a scan. */
const TRIGRAM = 3;
/** Configs read in order before the trigram index is asked, per item of the page. */
const WINDOW_PER_ITEM = 10;
const GET_CONFIG = sql(`${OPEN_CONFIGS} AND id = ?`);
/** The open configs among the ids of a JSON list. */
export const GET_CONFIGS = dialects({
  sqlite: `${OPEN_CONFIGS} AND id IN (SELECT value FROM json_each(?))`,
  postgres: `${OPEN_CONFIGS} AND id IN (SELECT json_array_elements_text(?::json))`,
});
const INSERT_CONFIG = insertInto('configs', NEW_CONFIG_COLUMNS);
export const UPDATE_CONFIG = sql(
  'UPDATE configs SET yaml = ?, yaml_packed = ?, revision = ?, valid = ?, error_count = ?, warning_count = ?, issues = ?, updated_at = ? WHERE account_id = ? AND id = ?',
);
export const CLOSE_CONFIG = sql(
  'UPDATE configs SET closed_at = ?, closed_reason = ? WHERE account_id = ? AND id = ?',
);
const GET_LIVE = sql('SELECT config_id FROM live_configs WHERE account_id = ?');
/** Making the live config live again keeps the time it became live. */
const SET_LIVE = sql(
  `INSERT INTO live_configs (account_id, config_id, live_since) VALUES (?, ?, ?)
   ON CONFLICT (account_id) DO UPDATE SET config_id = excluded.config_id,
     live_since = CASE WHEN live_configs.config_id = excluded.config_id
                       THEN live_configs.live_since ELSE excluded.live_since END`,
);
const INSERT_HISTORY = insertInto('history', HISTORY_COLUMNS);
/** The line: this config, then the one it was copied from, and so on; newest first in each. */
/** Configs of the line a stretch at a time: from one config back through what it was copied from. */
const LINE_STRETCH = sql(
  `WITH RECURSIVE line (id, base_config_id, depth) AS (
     SELECT id, base_config_id, 0 FROM configs WHERE account_id = ? AND id = ?
     UNION ALL
     SELECT c.id, c.base_config_id, line.depth + 1
       FROM configs c JOIN line ON c.id = line.base_config_id
      WHERE c.account_id = ? AND line.depth + 1 < ?
   )
   SELECT id, base_config_id, depth FROM line ORDER BY depth`,
);
/** One config's entries, newest first, below a seq. */
const HISTORY_OF_CONFIG = sql(
  'SELECT * FROM history WHERE account_id = ? AND config_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
);
/** Configs walked per statement while a page fills. */
const LINE_STRETCH_LENGTH = 32;
const BEFORE_EVERY_SEQ = Number.MAX_SAFE_INTEGER;
const HISTORY_AFTER = sql(
  'SELECT * FROM history WHERE account_id = ? AND config_id = ? AND revision > ? ORDER BY seq',
);

/** Booleans are 0/1 in SQLite and booleans in PostgreSQL; JSON columns are text in both. */
export function toConfig(row: Row, texts: TextMemo): ConfigRecordRow {
  const { yaml_packed: packed, ...columns } = row;
  return {
    ...(columns as unknown as ConfigRecordRow),
    yaml: texts.storedText(row.yaml, packed),
    valid: row.valid === 1 || row.valid === true,
    issues: JSON.parse(row.issues as string) as ConfigRecordRow['issues'],
    review:
      typeof row.review === 'string'
        ? (JSON.parse(row.review) as NonNullable<ConfigRecordRow['review']>)
        : null,
  };
}

/** What a history entry keeps of its operations, packed together once they grow long. */
interface EntryChanges {
  readonly operations: HistoryRecord['operations'];
  readonly applied_paths: string[];
  readonly text_changes?: HistoryRecord['text_changes'];
}

function changesOf(row: Row, texts: TextMemo): EntryChanges {
  if (row.entry_packed instanceof Uint8Array)
    return JSON.parse(texts.unpack(row.entry_packed)) as EntryChanges;
  return {
    operations: JSON.parse(row.operations as string) as HistoryRecord['operations'],
    applied_paths: JSON.parse(row.applied_paths as string) as string[],
    ...(typeof row.text_changes === 'string'
      ? { text_changes: JSON.parse(row.text_changes) as HistoryRecord['text_changes'] }
      : {}),
  };
}

function toHistory(row: Row, texts: TextMemo): HistoryRecord {
  const changes = changesOf(row, texts);
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
    operations: changes.operations,
    applied_paths: changes.applied_paths,
    ...(changes.text_changes ? { text_changes: changes.text_changes } : {}),
  };
}

/** What the configs list filters on in SQL (the review state itself follows from the policy). */
export interface ConfigListFilter {
  readonly kind?: ConfigKind | undefined;
  readonly review?: 'none' | 'requested' | undefined;
  /** Text the label contains, in any case. */
  readonly labelContains?: string | undefined;
}

/** Whether the store's label index hands matches over newest first (SQLite's) or not. */
export type LabelIndexOrder = 'newest_first' | 'unordered';

export function* listConfigs(
  accountId: string,
  filter: ConfigListFilter,
  page: PageRequest,
  labelIndex: LabelIndexOrder,
): Op<{ configs: Page<ConfigSummaryRow>; liveId: string | undefined }> {
  const kind = filter.kind ?? null;
  const review = filter.review ?? null;
  const term = filter.labelContains;
  const pattern = term === undefined ? null : `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const params = [accountId, kind, kind, review, review, review, pattern, pattern];
  const liveId = yield* liveIdOf(accountId);
  const read = (query: KeysetQuery, values: readonly unknown[]) =>
    readPage(query, values, page, createdKeyOf, toSummaryRow);
  if (term === undefined || [...term].length < TRIGRAM) {
    return { configs: yield* read(LIST_CONFIGS, params), liveId };
  }
  const byTrigrams = [accountId, kind, kind, review, review, review, term, pattern];
  if (labelIndex === 'newest_first') {
    return { configs: yield* read(LIST_CONFIGS_BY_TRIGRAMS, byTrigrams), liveId };
  }
  // A term most labels hold fills the page from the newest configs at once, while the
  // index would hand over every match to be sorted; so a window of the newest is read
  // first, and the index asked only when the window holds less than a page.
  const windowLength = WINDOW_PER_ITEM * (page.limit + 1);
  const end =
    page.after === undefined
      ? yield* get(WINDOW_END.first, accountId, windowLength - 1)
      : yield* get(WINDOW_END.after, accountId, ...page.after, windowLength - 1);
  if (end === undefined) return { configs: yield* read(LIST_CONFIGS, params), liveId };
  const windowed = yield* read(LIST_CONFIGS_IN_WINDOW, [...params, end.created_at, end.id]);
  if (windowed.next !== undefined) return { configs: windowed, liveId };
  return { configs: yield* read(LIST_CONFIGS_BY_TRIGRAMS, byTrigrams), liveId };
}

function toSummaryRow(row: Row): ConfigSummaryRow {
  return {
    ...(row as unknown as ConfigSummaryRow),
    valid: row.valid === 1 || row.valid === true,
    review:
      typeof row.review === 'string'
        ? (JSON.parse(row.review) as NonNullable<ConfigRecordRow['review']>)
        : null,
  };
}

export function* getConfig(
  accountId: string,
  id: string,
  texts: TextMemo,
): Op<ConfigRecordRow | undefined> {
  const row = yield* get(GET_CONFIG, accountId, id);
  return row && toConfig(row, texts);
}

export function* liveIdOf(accountId: string): Op<string | undefined> {
  return (yield* get(GET_LIVE, accountId))?.config_id as string | undefined;
}

/** The line's entries newest first, a page at a time. */
/**
 * The line's entries: this config's newest first, then those of the config it was copied
 * from, and so on back (key: the config's depth in the line, the entry's seq). The line is
 * walked only as far as the page needs, so the first page of a config with 10,000 versions
 * behind it reads its first few configs, not all of them.
 */
export function* history(
  accountId: string,
  configId: string,
  page: PageRequest,
  texts: TextMemo,
): Op<Page<HistoryRecord>> {
  const [afterDepth, afterSeq] = (page.after ?? [0, BEFORE_EVERY_SEQ]) as [number, number];
  const found: { entry: Row; depth: number }[] = [];
  // The stretch of the line that holds the cursor's depth starts from the head, walked to it.
  let from: string | null = configId;
  let depth = 0;
  while (from !== null && found.length <= page.limit) {
    const stretch = yield* all(LINE_STRETCH, accountId, from, accountId, LINE_STRETCH_LENGTH);
    if (stretch.length === 0) break;
    for (const config of stretch) {
      const at = depth + Number(config.depth);
      if (at < afterDepth) continue;
      const below = at === afterDepth ? afterSeq : BEFORE_EVERY_SEQ;
      const wanted = page.limit + 1 - found.length;
      const entries = yield* all(HISTORY_OF_CONFIG, accountId, config.id, below, wanted);
      for (const entry of entries) found.push({ entry, depth: at });
      if (found.length > page.limit) break;
    }
    const last = stretch[stretch.length - 1] as Row;
    from = (last.base_config_id as string | null) ?? null;
    depth += stretch.length;
  }
  const shown = found.slice(0, page.limit);
  const lastShown = shown[shown.length - 1];
  return {
    items: shown.map(({ entry }) => toHistory(entry, texts)),
    next:
      found.length > page.limit && lastShown
        ? [lastShown.depth, Number(lastShown.entry.seq)]
        : undefined,
  };
}

export function* historyAfter(
  accountId: string,
  configId: string,
  revision: number,
  texts: TextMemo,
): Op<HistoryRecord[]> {
  return (yield* all(HISTORY_AFTER, accountId, configId, revision)).map((row) =>
    toHistory(row, texts),
  );
}

export function insertConfig(config: NewConfig, texts: TextMemo): Op<number> {
  const issues = JSON.stringify(config.issues);
  const { plain, packed } = texts.textColumns(config.yaml);
  const stored = { ...config, issues, yaml: plain, yaml_packed: packed };
  return run(INSERT_CONFIG, ...valuesOf(stored, NEW_CONFIG_COLUMNS));
}

/** `configId` becomes live at `at` (when its tests' next phases start). */
export function setLive(accountId: string, configId: string, at: string): Op<number> {
  return run(SET_LIVE, accountId, configId, at);
}

/** An edit's operations may carry a whole text: long ones are packed like config text. */
export function addHistory(entry: HistoryRecord, texts: TextMemo): Op<number> {
  const changes: EntryChanges = {
    operations: entry.operations,
    applied_paths: [...entry.applied_paths],
    ...(entry.text_changes ? { text_changes: entry.text_changes } : {}),
  };
  const whole = JSON.stringify(changes);
  const json =
    whole.length < PACK_FROM_BYTES
      ? {
          operations: JSON.stringify(entry.operations),
          applied_paths: JSON.stringify(entry.applied_paths),
          text_changes: entry.text_changes ? JSON.stringify(entry.text_changes) : null,
          entry_packed: null,
        }
      : { operations: '', applied_paths: '', text_changes: null, entry_packed: texts.pack(whole) };
  return run(INSERT_HISTORY, ...valuesOf({ ...entry, ...json }, HISTORY_COLUMNS));
}

const UNPACKED_CONFIGS = sql(
  'SELECT id, revision, yaml FROM configs WHERE yaml_packed IS NULL ORDER BY id LIMIT ?',
);
const SET_PACKED = sql(
  "UPDATE configs SET yaml = '', yaml_packed = ? WHERE id = ? AND revision = ? AND yaml_packed IS NULL",
);

/** Rows written before compression, a few at a time: what the background conversion packs. */
export function* unpackedConfigs(
  limit: number,
): Op<{ id: string; revision: number; yaml: string }[]> {
  return (yield* all(UNPACKED_CONFIGS, limit)).map((row) => ({
    id: row.id as string,
    revision: Number(row.revision),
    yaml: row.yaml as string,
  }));
}

/** Stores a row's packed text, unless the row changed since it was read. */
export function setPacked(id: string, revision: number, packed: Buffer): Op<number> {
  return run(SET_PACKED, packed, id, revision);
}
