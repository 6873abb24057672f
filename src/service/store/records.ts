/** The rows the store keeps, as the service sees them. */
import type { Permission, Role } from '../../contract/auth-status';
import type { ConfigKind } from '../../contract/config-edit';
import type { HistoryAction } from '../../contract/configs';
import type { Operation, TextChange } from '../../contract/operations';
import type { ValidationIssue } from '../../contract/validation';

export interface AccountRecord {
  readonly id: string;
  readonly name: string;
  readonly account_type: string;
  readonly idp_organization_id: string;
  readonly created_at: string;
}

export interface UserRecord {
  readonly id: string;
  readonly account_id: string;
  readonly email: string;
  readonly role: Role;
  readonly idp_user_id: string;
  readonly created_at: string;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly account_id: string;
  readonly user_id: string;
  readonly name: string;
  readonly key_hash: string;
  readonly obfuscated_value: string;
  readonly permissions: readonly Permission[];
  readonly created_at: string;
  readonly last_used_at: string | null;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

/** Who is calling: the key, its user and its account, as one lookup returns them. */
export interface Principal {
  readonly key: ApiKeyRecord;
  readonly user: UserRecord;
  readonly account: AccountRecord;
}

export interface ConfigRecordRow {
  readonly id: string;
  readonly account_id: string;
  readonly kind: ConfigKind;
  readonly label: string;
  readonly yaml: string;
  readonly revision: number;
  readonly base_config_id: string | null;
  readonly valid: boolean;
  readonly error_count: number;
  readonly warning_count: number;
  readonly issues: readonly ValidationIssue[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly published_at: string | null;
  readonly closed_at: string | null;
  readonly closed_reason: 'published' | 'discarded' | null;
}

export type NewConfig = Omit<ConfigRecordRow, 'closed_at' | 'closed_reason'>;

export interface HistoryRecord {
  readonly config_id: string;
  readonly account_id: string;
  readonly action: HistoryAction;
  readonly at: string;
  readonly revision: number;
  readonly summary: string | null;
  readonly api_key_id: string | null;
  readonly api_key_name: string | null;
  readonly actor_email: string | null;
  readonly operations: readonly Operation[];
  readonly applied_paths: readonly string[];
  /** How the edit changed the config's text (against the text before it); absent: unknown. */
  readonly text_changes?: readonly TextChange[];
}

export interface AuditRecord {
  readonly account_id: string;
  readonly at: string;
  readonly action: string;
  readonly actor: string | null;
  readonly target_id: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
}
