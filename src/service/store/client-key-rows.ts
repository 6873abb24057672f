/**
 * Client keys as both stores read them, and the one query the delivery path makes: the key,
 * its account's live config stamp, together (a LEFT JOIN: an account without a live config
 * still finds its key).
 */
import type { LiveConfigStamp } from '../../configs/delivery-view';

import type { Row } from './rows';
import type { ClientKeyRecord } from './records';

/** The key's columns and the live config's (l_), for `WHERE k.key = ?` (or `$1`). */
export const DELIVERY_KEY_QUERY = `SELECT k.id, k.account_id, k.name, k.key, k.apps, k.created_at, k.revoked_at,
       c.id AS l_id, c.revision AS l_revision, COALESCE(c.published_at, c.created_at) AS l_published_at
  FROM client_keys k
  LEFT JOIN live_configs l ON l.account_id = k.account_id
  LEFT JOIN configs c ON c.id = l.config_id
 WHERE k.key = `;

/** An account's live config stamp, for `WHERE l.account_id = ?` (or `$1`). */
export const LIVE_STAMP_QUERY = `SELECT c.id AS l_id, c.revision AS l_revision, COALESCE(c.published_at, c.created_at) AS l_published_at
  FROM live_configs l JOIN configs c ON c.id = l.config_id
 WHERE l.account_id = `;

export const CLIENT_KEY_COLUMNS = 'id, account_id, name, key, apps, created_at, revoked_at';

/** A client key found with its account's live config (undefined: the account has none). */
export interface DeliveryKeyLookup {
  readonly key: ClientKeyRecord;
  readonly live: LiveConfigStamp | undefined;
}

export function toClientKey(row: Row): ClientKeyRecord {
  return {
    id: row.id as string,
    account_id: row.account_id as string,
    name: row.name as string,
    key: row.key as string,
    apps: typeof row.apps === 'string' ? (JSON.parse(row.apps) as string[]) : null,
    created_at: row.created_at as string,
    revoked_at: (row.revoked_at as string | null) ?? null,
  };
}

export function toDeliveryKeyLookup(row: Row): DeliveryKeyLookup {
  return { key: toClientKey(row), live: toLiveStamp(row) };
}

/** The live config's columns (l_) of a row; undefined when the row has none. */
export function toLiveStamp(row: Row | undefined): LiveConfigStamp | undefined {
  if (typeof row?.l_id !== 'string') return undefined;
  return {
    id: row.l_id,
    revision: Number(row.l_revision),
    published_at: row.l_published_at as string,
  };
}

/** The apps column: JSON text, NULL for every app. */
export function appsColumn(key: ClientKeyRecord): string | null {
  return key.apps === null ? null : JSON.stringify(key.apps);
}
