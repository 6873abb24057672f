/**
 * Client keys, and the lookup every delivery request makes: the key with its account's live
 * config stamp in one statement (a LEFT JOIN: an account without a live config still finds
 * its key). A revoked key ends its open streams, on every instance, once the revoke commits.
 */
import type { Page, PageRequest } from '../pages';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import { belowLimit } from '../accounts/accounts';
import { addAudit } from '../audit/audit-log';
import type { AuditRecord, ClientKeyRecord, DeliveryKeyLookup, LiveStamp } from '../records';
import {
  get,
  insertInto,
  liveChanged,
  lookupChanged,
  pick,
  run,
  sql,
  valuesOf,
  type Op,
  type Row,
} from '../sql/sql';

const CLIENT_KEY_COLUMNS = ['id', 'account_id', 'name', 'key', 'apps', 'created_at', 'revoked_at'];
const SELECT_CLIENT_KEYS = `SELECT ${CLIENT_KEY_COLUMNS.join(', ')} FROM client_keys`;

const INSERT_CLIENT_KEY = insertInto('client_keys', CLIENT_KEY_COLUMNS);
const LIST_CLIENT_KEYS = keysetQuery(
  `${SELECT_CLIENT_KEYS} WHERE account_id = ?`,
  CREATED_KEY,
  'DESC',
);
const COUNT_CLIENT_KEYS = sql(
  'SELECT COUNT(*) AS n FROM client_keys WHERE account_id = ? AND revoked_at IS NULL',
);
const GET_CLIENT_KEY = sql(`${SELECT_CLIENT_KEYS} WHERE account_id = ? AND id = ?`);
const REVOKE_CLIENT_KEY = sql(
  'UPDATE client_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL',
);

/** The key's columns and its account's live config's (l_). */
export const DELIVERY_KEY = sql(
  `SELECT k.id, k.account_id, k.name, k.key, k.apps, k.created_at, k.revoked_at,
          c.id AS l_id, c.revision AS l_revision, COALESCE(c.published_at, c.created_at) AS l_published_at,
          COALESCE(l.live_since, c.published_at, c.created_at) AS l_live_since
     FROM client_keys k
     LEFT JOIN live_configs l ON l.account_id = k.account_id
     LEFT JOIN configs c ON c.id = l.config_id
    WHERE k.key = ?`,
);

/**
 * What an account's event streams depend on: its live config, and the last revocation of
 * its client keys. Unchanged, another process's commit is nothing to them.
 */
const STREAM_STAMP = sql(
  `SELECT l.config_id AS live, c.revision AS revision,
          (SELECT MAX(k.revoked_at) FROM client_keys k WHERE k.account_id = ?) AS revoked
     FROM accounts a
     LEFT JOIN live_configs l ON l.account_id = a.id
     LEFT JOIN configs c ON c.id = l.config_id
    WHERE a.id = ?`,
);

const LIVE_STAMP = sql(
  `SELECT c.id AS l_id, c.revision AS l_revision, COALESCE(c.published_at, c.created_at) AS l_published_at,
          COALESCE(l.live_since, c.published_at, c.created_at) AS l_live_since
     FROM live_configs l JOIN configs c ON c.id = l.config_id
    WHERE l.account_id = ?`,
);

export function toClientKey(row: Row): ClientKeyRecord {
  return {
    ...pick<ClientKeyRecord>(row, CLIENT_KEY_COLUMNS),
    apps: typeof row.apps === 'string' ? (JSON.parse(row.apps) as string[]) : null,
  };
}

export function toDeliveryKeyLookup(row: Row): DeliveryKeyLookup {
  return { key: toClientKey(row), live: toLiveStamp(row) };
}

/** The live config's columns (l_) of a row; undefined when the row has none. */
function toLiveStamp(row: Row | undefined): LiveStamp | undefined {
  if (typeof row?.l_id !== 'string') return undefined;
  return {
    id: row.l_id,
    revision: Number(row.l_revision),
    published_at: row.l_published_at as string,
    live_since: row.l_live_since as string,
  };
}

export function* insertClientKey(
  key: ClientKeyRecord,
  audit: AuditRecord,
  limit: number,
): Op<boolean> {
  const accountId = key.account_id;
  if (!(yield* belowLimit(accountId, limit, COUNT_CLIENT_KEYS, accountId))) return false;
  const apps = key.apps === null ? null : JSON.stringify(key.apps);
  yield* run(INSERT_CLIENT_KEY, ...valuesOf({ ...key, apps }, CLIENT_KEY_COLUMNS));
  yield* addAudit(audit);
  return true;
}

/** The account's client keys, revoked ones included, newest first. */
export function* listClientKeys(accountId: string, page: PageRequest): Op<Page<ClientKeyRecord>> {
  return yield* readPage(LIST_CLIENT_KEYS, [accountId], page, createdKeyOf, toClientKey);
}

export function* revokeClientKey(
  accountId: string,
  id: string,
  at: string,
  audit: AuditRecord,
): Op<ClientKeyRecord | undefined> {
  if ((yield* run(REVOKE_CLIENT_KEY, at, accountId, id)) > 0) {
    yield* addAudit(audit);
    yield* lookupChanged('deliveryKeys');
    yield* liveChanged(accountId);
  }
  const row = yield* get(GET_CLIENT_KEY, accountId, id);
  return row && toClientKey(row);
}

export function* findDeliveryKey(key: string): Op<DeliveryKeyLookup | undefined> {
  const row = yield* get(DELIVERY_KEY, key);
  return row && toDeliveryKeyLookup(row);
}

export function* getLiveStamp(accountId: string): Op<LiveStamp | undefined> {
  return toLiveStamp(yield* get(LIVE_STAMP, accountId));
}

export function* getStreamStamp(accountId: string): Op<string> {
  const row = yield* get(STREAM_STAMP, accountId, accountId);
  return JSON.stringify([row?.live ?? null, row?.revision ?? null, row?.revoked ?? null]);
}
