/** The audit trail's entries, as every domain module writes them beside its change. */
import type { AuditRecord } from '../store/records';

export function audit(
  accountId: string,
  at: string,
  action: string,
  actor: string | null,
  targetId: string | null,
  detail: Record<string, unknown>,
): AuditRecord {
  return { account_id: accountId, at, action, actor, target_id: targetId, detail };
}
