/** The rows the store keeps, as the service sees them. */
import type { Permission, Role } from '../../contract/auth-status';
import type { ConfigKind } from '../../contract/config-edit';
import type { ScheduleStatus } from '../../contract/environments';
import type { HistoryAction } from '../../contract/configs';
import type { Operation, TextChange } from '../../contract/operations';
import type { ReviewVerdict } from '../../contract/reviews';
import type { ValidationIssue } from '../../contract/validation';
import type { WebhookDelivery, WebhookEvent } from '../../contract/webhooks';
import type { LiveConfigStamp } from '../../configs/delivery-view';
import type { MetricKind } from '../../contract/experiments';

export interface AccountRecord {
  readonly id: string;
  readonly name: string;
  readonly account_type: string;
  readonly idp_organization_id: string;
  readonly created_at: string;
  /** The organization it belongs to (every account has one since people sign in). */
  readonly organization_id?: string | null;
  /** Whether the console asks for the name before a change goes live (read where listed). */
  readonly protected?: boolean;
}

/** A person's membership of an account, with their role in it. */
export interface UserRecord {
  readonly id: string;
  readonly account_id: string;
  readonly email: string;
  readonly role: Role;
  readonly idp_user_id: string;
  readonly created_at: string;
  /** Null only for a membership made before people existed and not yet migrated. */
  readonly person_id?: string | null;
  readonly removed_at?: string | null;
}

/** An organization's SSO connection, without its secret. */
export interface SsoConnection {
  readonly issuer: string;
  readonly client_id: string;
  readonly email_domains: readonly string[];
  readonly groups_claim: string;
  readonly group_roles: Readonly<Record<string, Role>>;
  readonly default_role: Role | 'refuse';
  readonly jit: boolean;
}

export interface OrganizationRecord {
  readonly id: string;
  readonly name: string;
  /** Null: the deployment's default. */
  readonly session_idle_minutes: number | null;
  readonly session_max_hours: number | null;
  readonly password_sign_in: boolean;
  readonly sso: SsoConnection | null;
  readonly sso_generation: number;
  readonly created_at: string;
}

export interface PersonRecord {
  readonly id: string;
  readonly organization_id: string;
  readonly email: string;
  readonly name: string | null;
  readonly issuer: string | null;
  readonly subject: string | null;
  readonly password_hash: string | null;
  readonly created_at: string;
  readonly last_sign_in_at: string | null;
}

export type SignInMethod = 'password' | 'sso' | 'api_key';

export interface SessionRecord {
  /** The public id; the cookie's token is known only by its SHA-256. */
  readonly id: string;
  readonly token_hash: string;
  readonly person_id: string;
  readonly user_id: string;
  readonly account_id: string;
  readonly api_key_id: string | null;
  readonly method: SignInMethod;
  readonly sso_generation: number | null;
  readonly id_token: string | null;
  readonly created_at: string;
  readonly last_seen_at: string;
  readonly ip: string | null;
  readonly user_agent: string | null;
  readonly ended_at: string | null;
  readonly end_reason: string | null;
}

export interface InvitationRecord {
  readonly id: string;
  readonly account_id: string;
  readonly email: string;
  readonly role: Role;
  readonly token_hash: string;
  readonly created_by: string | null;
  readonly created_at: string;
  readonly expires_at: string;
  readonly accepted_at: string | null;
  readonly accepted_by: string | null;
  readonly revoked_at: string | null;
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

/**
 * Who is calling: an API key, or a session (made from a key, or by a person signing in),
 * with the membership (user) and account it acts in and what it may do there.
 */
export interface Principal {
  /** The key of a Bearer request or of a session made from a key; null for a person's session. */
  readonly key: ApiKeyRecord | null;
  readonly session: SessionRecord | null;
  /** What this caller may do: a key's permissions within its user's role, a person's role's. */
  readonly permissions: readonly Permission[];
  readonly user: UserRecord;
  readonly account: AccountRecord;
  /** Set for a session: the person signed in and their organization. */
  readonly person?: PersonRecord;
  readonly organization?: OrganizationRecord;
  /** The address of the request acting (set for changes, for the audit trail). */
  readonly ip?: string;
}

/** A Bearer request's caller: its key, the key's user and account. */
export interface KeyPrincipal extends Principal {
  readonly key: ApiKeyRecord;
  readonly session: null;
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

/** A config as a list shows it: without its text and issues, which a list never reads. */
export type ConfigSummaryRow = Omit<ConfigRecordRow, 'yaml' | 'issues'>;

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
  /** The request's address, for the audit record the unit of work writes beside it. */
  readonly ip?: string | null;
}

export interface AuditRecord {
  readonly account_id: string;
  readonly at: string;
  readonly action: string;
  /** The API key that acted (a person's id once people sign in); null: the operator or the service. */
  readonly actor: string | null;
  /** What changed; its kind shows in its id's prefix (`cfg_`, `key_`, `wh_`…). */
  readonly target_id: string | null;
  /** Never a secret; webhook URLs masked (domain/audit.ts). */
  readonly detail: Readonly<Record<string, unknown>>;
  /** The address the request came from; null for the operator's command line. */
  readonly ip?: string | null;
}

/** An audit record as it is read back: its place in the trail and its actor's names. */
export interface StoredAuditRecord extends AuditRecord {
  readonly seq: number;
  readonly actor_name: string | null;
  readonly actor_email: string | null;
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

/** The account's live config as the service reads it: apps' stamp, and since when it is live. */
export interface LiveStamp extends LiveConfigStamp {
  /** When it became live: a rollback's activation, where `published_at` is the first publish. */
  readonly live_since: string;
}

/** A client key found with its account's live config (undefined: the account has none). */
export interface DeliveryKeyLookup {
  readonly key: ClientKeyRecord;
  readonly live: LiveStamp | undefined;
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

/** A metric of an account: what an event means for the A/B tests that name its id. */
export interface MetricRecord {
  readonly account_id: string;
  readonly id: string;
  readonly name: string;
  readonly kind: MetricKind;
  readonly event: string;
  readonly window_hours: number;
  /** Lower is better. */
  readonly inverse: boolean;
  /** A unit's value above it counts as the cap; null: no cap. */
  readonly cap: number | null;
  readonly created_at: string;
  readonly updated_at: string;
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

/** A change scheduled to run at a time (a publish, or one A/B step). */
export interface ScheduleRecord {
  readonly id: string;
  readonly account_id: string;
  readonly config_id: string;
  readonly action: 'publish' | 'ab_test';
  /** For an A/B step: its one lifecycle operation. */
  readonly operations: readonly Operation[] | null;
  readonly summary: string | null;
  readonly run_at: string;
  readonly user_id: string;
  readonly api_key_id: string | null;
  readonly status: ScheduleStatus;
  readonly claimed_by: string | null;
  readonly claimed_until: string | null;
  readonly reason: string | null;
  readonly result_config_id: string | null;
  readonly created_at: string;
  readonly finished_at: string | null;
}

/** A schedule with the email of whom it runs as. */
export interface ScheduleRow extends ScheduleRecord {
  readonly email: string;
}
