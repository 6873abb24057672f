/**
 * The audit trail's entries, as every domain module writes them beside its change: who (the
 * key, or null for the operator), from where, what, on what. Never a secret: webhook URLs,
 * often secret themselves, are kept to their scheme and host.
 */
import type { AuditRecord, Principal } from '../store/records';

export function audit(
  accountId: string,
  at: string,
  action: string,
  actor: AuditActor | null,
  targetId: string | null,
  detail: Record<string, unknown>,
): AuditRecord {
  return {
    account_id: accountId,
    at,
    action,
    actor: actor === null ? null : actorIdOf(actor),
    target_id: targetId,
    detail,
    ip: actor?.ip ?? null,
  };
}

/** What an audit record needs of who acted (a Principal is one). */
export type AuditActor = Pick<Principal, 'key' | 'user' | 'ip'>;

/** Who acted: the key (a Bearer request or a session made from it), else the member. */
export function actorIdOf(principal: AuditActor): string {
  return principal.key?.id ?? principal.user.id;
}

/** `https://user:pw@hooks.example.com/T0/B1?token=x` -> `https://hooks.example.com/…`. */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return '…';
  }
}
