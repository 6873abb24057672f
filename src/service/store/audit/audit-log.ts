/**
 * The audit log: each change made through the API adds its entry in the change's transaction;
 * `GET /audit` reads it newest first, a page at a time, by the filters a security team uses.
 */
import type { Page, PageRequest } from '../pages';
import type { AuditRecord, HistoryRecord, StoredAuditRecord } from '../records';
import { keysetQuery, readPage, seqKeyOf } from '../sql/keyset';
import { insertInto, run, valuesOf, type Op, type Row } from '../sql/sql';

const AUDIT_COLUMNS = ['account_id', 'at', 'action', 'actor', 'target_id', 'detail', 'ip'];
const INSERT_AUDIT = insertInto('audit_log', AUDIT_COLUMNS);

/** What the trail is filtered on; each absent filter takes all. */
export interface AuditFilter {
  readonly actor?: string | undefined;
  /** An action (`config.publish`) or, ending in a dot, its family (`config.`). */
  readonly action?: string | undefined;
  readonly target?: string | undefined;
  /** From this instant on, included. */
  readonly from?: string | undefined;
  /** Before this instant. */
  readonly to?: string | undefined;
}

const filtered = (cast: string) =>
  `SELECT a.seq, a.account_id, a.at, a.action, a.actor, a.target_id, a.detail, a.ip,
          COALESCE(k.name, p.name) AS actor_name, u.email AS actor_email
     FROM audit_log a LEFT JOIN api_keys k ON k.id = a.actor
     LEFT JOIN users u ON u.id = COALESCE(k.user_id, a.actor)
     LEFT JOIN people p ON p.id = u.person_id
    WHERE a.account_id = ?
      AND (?${cast} IS NULL OR a.actor = ?)
      AND (?${cast} IS NULL OR a.action = ?)
      AND (?${cast} IS NULL OR a.action LIKE ?)
      AND (?${cast} IS NULL OR a.target_id = ?)
      AND (?${cast} IS NULL OR a.at >= ?)
      AND (?${cast} IS NULL OR a.at < ?)`;
const FILTERED = { sqlite: filtered(''), postgres: filtered('::text') };
const LIST_AUDIT = {
  newestFirst: keysetQuery(FILTERED, ['a.seq'], 'DESC'),
  oldestFirst: keysetQuery(FILTERED, ['a.seq'], 'ASC'),
};

export function addAudit(entry: AuditRecord): Op<number> {
  return run(
    INSERT_AUDIT,
    ...valuesOf(
      { ...entry, detail: JSON.stringify(entry.detail), ip: entry.ip ?? null },
      AUDIT_COLUMNS,
    ),
  );
}

/** The audit record of a change to a config, from its history entry. */
export function auditOfHistory(entry: HistoryRecord): AuditRecord {
  return {
    account_id: entry.account_id,
    at: entry.at,
    action: `config.${entry.action}`,
    actor: entry.api_key_id,
    target_id: entry.config_id,
    detail: {
      revision: entry.revision,
      ...(entry.summary !== null ? { summary: entry.summary } : {}),
      operations: entry.operations.length,
      // A few paths say what changed; the history has them all.
      applied_paths: entry.applied_paths.slice(0, 20),
    },
    ip: entry.ip ?? null,
  };
}

export function* listAudit(
  accountId: string,
  filter: AuditFilter,
  page: PageRequest,
  order: 'newestFirst' | 'oldestFirst',
): Op<Page<StoredAuditRecord>> {
  const { actor = null, target = null, from = null, to = null } = filter;
  const family = filter.action?.endsWith('.') ? `${filter.action}%` : null;
  const action = family === null ? (filter.action ?? null) : null;
  const params = [
    accountId,
    actor,
    actor,
    action,
    action,
    family,
    family,
    target,
    target,
    from,
    from,
    to,
    to,
  ];
  return yield* readPage(LIST_AUDIT[order], params, page, seqKeyOf, toStoredAudit);
}

function toStoredAudit(row: Row): StoredAuditRecord {
  return {
    seq: Number(row.seq),
    account_id: row.account_id as string,
    at: row.at as string,
    action: row.action as string,
    actor: (row.actor as string | null) ?? null,
    target_id: (row.target_id as string | null) ?? null,
    detail: JSON.parse(row.detail as string) as Record<string, unknown>,
    ip: (row.ip as string | null) ?? null,
    actor_name: (row.actor_name as string | null) ?? null,
    actor_email: (row.actor_email as string | null) ?? null,
  };
}
