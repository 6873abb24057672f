/**
 * Client keys, and the lookup every delivery request makes: the key with its account's live
 * config stamp in one statement (a LEFT JOIN: an account without a live config still finds
 * its key). A revoked key ends its open streams, on every instance, once the revoke commits.
 */
import type { LiveConfigStamp } from '../../../configs/delivery-view';
import { addAudit } from '../audit/audit-log';
import type { Page, PageRequest } from '../pages';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import type { AuditRecord, ClientKeyRecord, DeliveryKeyLookup } from '../records';
import {
  get,
  insertInto,
  liveChanged,
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
const GET_CLIENT_KEY = sql(`${SELECT_CLIENT_KEYS} WHERE account_id = ? AND id = ?`);
const REVOKE_CLIENT_KEY = sql(
  'UPDATE client_keys SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL',
);

/** The key's columns and its account's live config's (l_). */
export const DELIVERY_KEY = sql(
  `SELECT k.id, k.account_id, k.name, k.key, k.apps, k.created_at, k.revoked_at,
          c.id AS l_id, c.revision AS l_revision, COALESCE(c.published_at, c.created_at) AS l_published_at
     FROM client_keys k
     LEFT JOIN live_configs l ON l.account_id = k.account_id
     LEFT JOIN configs c ON c.id = l.config_id
    WHERE k.key = ?`,
);

const LIVE_STAMP = sql(
  `SELECT c.id AS l_id, c.revision AS l_revision, COALESCE(c.published_at, c.created_at) AS l_published_at
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
function toLiveStamp(row: Row | undefined): LiveConfigStamp | undefined {
  if (typeof row?.l_id !== 'string') return undefined;
  return {
    id: row.l_id,
    revision: Number(row.l_revision),
    published_at: row.l_published_at as string,
  };
}

export function* insertClientKey(key: ClientKeyRecord, audit: AuditRecord): Op<void> {
  const apps = key.apps === null ? null : JSON.stringify(key.apps);
  yield* run(INSERT_CLIENT_KEY, ...valuesOf({ ...key, apps }, CLIENT_KEY_COLUMNS));
  yield* addAudit(audit);
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
    yield* liveChanged(accountId);
  }
  const row = yield* get(GET_CLIENT_KEY, accountId, id);
  return row && toClientKey(row);
}

export function* findDeliveryKey(key: string): Op<DeliveryKeyLookup | undefined> {
  const row = yield* get(DELIVERY_KEY, key);
  return row && toDeliveryKeyLookup(row);
}

export function* getLiveStamp(accountId: string): Op<LiveConfigStamp | undefined> {
  return toLiveStamp(yield* get(LIVE_STAMP, accountId));
}
