/** The rows the store keeps, as the service sees them. */
import type { Permission, Role } from '../../contract/auth-status';
import type { ConfigKind } from '../../contract/config-edit';
import type { HistoryAction } from '../../contract/configs';
import type { Operation, TextChange } from '../../contract/operations';
import type { AccountPolicy, ReviewStateName, ReviewVerdict } from '../../contract/reviews';
import type { ValidationIssue } from '../../contract/validation';
import type { WebhookDelivery, WebhookEvent } from '../../contract/webhooks';
import type { LiveConfigStamp } from '../../configs/delivery-view';

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
  /** The review of a draft; null until one is requested (and always for a published config). */
  readonly review: ConfigReview | null;
}

/** A config as lists show it: no text, no issues (the costly columns), open. */
export type ConfigSummaryRow = Omit<
  ConfigRecordRow,
  'yaml' | 'issues' | 'closed_at' | 'closed_reason'
>;

/**
 * Which configs a list shows. A review state follows from the draft's review and the
 * account's policy (domain/reviews-state.ts), so the policy comes with it; `waiting_for` is
 * the reviewer (an e-mail) whose approval the draft still lacks.
 */
export interface ConfigListFilter {
  readonly kind?: ConfigKind | undefined;
  readonly review?:
    | {
        readonly state: ReviewStateName | 'waiting_for';
        readonly policy: AccountPolicy;
        readonly reviewer?: string;
      }
    | undefined;
  /** Part of the label, any case. */
  readonly labelContains?: string | undefined;
}

/** A config is made without a review. */
export type NewConfig = Omit<ConfigRecordRow, 'closed_at' | 'closed_reason' | 'review'>;

/** A draft's review as stored with it: who asked, and each reviewer's latest verdict. */
export interface ConfigReview {
  readonly requested_by: string;
  readonly requested_at: string;
  readonly publish_on_approval: boolean;
  readonly verdicts: readonly ReviewerVerdict[];
}

export interface ReviewerVerdict {
  /** The reviewer's e-mail. */
  readonly by: string;
  readonly verdict: Exclude<ReviewVerdict, 'comment'>;
  /** The draft's revision it was given on. */
  readonly revision: number;
}

/** One review of a draft, as the timeline shows it. */
export interface ReviewRecord {
  readonly id: string;
  readonly account_id: string;
  readonly config_id: string;
  readonly verdict: ReviewVerdict;
  readonly body: string;
  readonly line: number | null;
  readonly revision: number;
  readonly api_key_id: string | null;
  /** The reviewer's e-mail. */
  readonly reviewer: string;
  readonly at: string;
}

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

export interface ClientKeyRecord {
  readonly id: string;
  readonly account_id: string;
  readonly name: string;
  /** `ck_…`: not a secret, so it is stored as is and looked up by value. */
  readonly key: string;
  /** The apps it reads; null: every app of the account. */
  readonly apps: readonly string[] | null;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

/** A client key found with its account's live config (undefined: the account has none). */
export interface DeliveryKeyLookup {
  readonly key: ClientKeyRecord;
  readonly live: LiveConfigStamp | undefined;
}

export interface WebhookRecord {
  readonly id: string;
  readonly account_id: string;
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly description: string;
  /** `whsec_…`: kept because every delivery is signed with it; never listed. */
  readonly secret: string;
  readonly created_at: string;
  readonly deleted_at: string | null;
}

export type DeliveryStatus = WebhookDelivery['status'];

export interface WebhookDeliveryRecord {
  readonly id: string;
  readonly webhook_id: string;
  readonly account_id: string;
  readonly event: string;
  readonly payload: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly created_at: string;
  readonly next_attempt_at: string | null;
  readonly last_attempt_at: string | null;
  readonly response_status: number | null;
  readonly error: string | null;
}

/** The event data of a unit of work, built only when some endpoint subscribes to it. */
export type EventData = () => Readonly<Record<string, unknown>>;
