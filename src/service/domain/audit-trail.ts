/**
 * What `GET /audit` and `GET /audit/export` show: the account's audit records as people read
 * them, the actor and the target named by kind. The export reads in batches, so a trail of
 * years streams out without being held in memory.
 */
import type { AuditEntry } from '../../contract/audit';
import type { AuditFilter } from '../store/audit/audit-log';
import { mapPage, type Page, type PageKey, type PageRequest } from '../store/pages';
import type { Principal, StoredAuditRecord } from '../store/records';
import type { Store } from '../store/store';

/** Records an export reads at a time. */
const AUDIT_EXPORT_BATCH = 500;

/** What an id's prefix says it names. */
const TARGET_TYPES: readonly (readonly [string, string])[] = [
  ['cfg_', 'config'],
  ['key_', 'api_key'],
  ['ckey_', 'client_key'],
  ['wh_', 'webhook'],
  ['msg_', 'webhook_delivery'],
  ['acc_', 'account'],
  ['usr_', 'user'],
];

/** Targets named by an id of the account's choosing, known by their action's family. */
const TARGET_TYPES_BY_ACTION: readonly (readonly [string, string])[] = [['metric.', 'metric']];

function targetTypeOf(record: StoredAuditRecord, targetId: string): string {
  const byAction = TARGET_TYPES_BY_ACTION.find(([family]) => record.action.startsWith(family));
  if (byAction) return byAction[1];
  return TARGET_TYPES.find(([prefix]) => targetId.startsWith(prefix))?.[1] ?? 'other';
}

export class AuditTrail {
  constructor(private readonly store: Store) {}

  async list(
    principal: Principal,
    filter: AuditFilter,
    page: PageRequest,
  ): Promise<Page<AuditEntry>> {
    return mapPage(await this.store.listAudit(principal.account.id, filter, page), toAuditEntry);
  }

  /** Oldest first, one batch after another, until the filter's end. */
  async *export(principal: Principal, filter: AuditFilter): AsyncGenerator<AuditEntry> {
    let after: PageKey | undefined;
    do {
      const page = await this.store.listAudit(
        principal.account.id,
        filter,
        { limit: AUDIT_EXPORT_BATCH, after },
        'oldestFirst',
      );
      for (const record of page.items) yield toAuditEntry(record);
      after = page.next;
    } while (after !== undefined);
  }
}

export function toAuditEntry(record: StoredAuditRecord): AuditEntry {
  const actorType =
    record.actor === null ? 'system' : record.actor.startsWith('key_') ? 'key' : 'person';
  return {
    id: record.seq,
    at: record.at,
    actor: {
      type: actorType,
      id: record.actor,
      ...(record.actor_name !== null ? { name: record.actor_name } : {}),
      ...(record.actor_email !== null ? { email: record.actor_email } : {}),
    },
    action: record.action,
    target:
      record.target_id === null
        ? null
        : { type: targetTypeOf(record, record.target_id), id: record.target_id },
    ip: record.ip ?? null,
    detail: { ...record.detail },
  };
}
