/** What environments and scheduled changes ask of the store (the SQL is beside this file). */
import type { Page, PageRequest } from '../pages';
import type {
  AccountRecord,
  AuditRecord,
  EventData,
  ScheduleRecord,
  ScheduleRow,
  UserRecord,
} from '../records';
import type { ScheduleFilter, ScheduleOutcome } from '../schedules/schedules';
import type { WebhookEvent } from '../../../contract/webhooks';
import type { AccountMembership, NewEnvironment } from './environments';

export interface EnvironmentStore {
  /** The accounts a person is a member of (not removed), oldest first. */
  accountsOfPerson(personId: string): Promise<AccountMembership[]>;
  /** The person's membership of the account, with the account; undefined if none. */
  accountMembershipOf(personId: string, accountId: string): Promise<AccountMembership | undefined>;
  isOrganizationOwner(organizationId: string, personId: string): Promise<boolean>;
  /** The owners' person ids, the first owner first. */
  organizationOwners(organizationId: string): Promise<string[]>;
  /** False, writing nothing, when the organization already has `limit` accounts. */
  addEnvironment(input: NewEnvironment, limit: number): Promise<boolean>;
  /** Names a person an owner, an admin of every account; the organization's account ids. */
  nameOrganizationOwner(
    organizationId: string,
    personId: string,
    memberships: (accountId: string) => UserRecord,
    at: string,
    audit: AuditRecord,
  ): Promise<string[]>;
  updateAccount(
    id: string,
    change: { readonly name?: string; readonly protected?: boolean },
    audit: AuditRecord,
  ): Promise<AccountRecord | undefined>;
}

export interface ScheduleStore {
  /** False, writing nothing, when the account already has `limit` pending schedules. */
  insertSchedule(schedule: ScheduleRecord, audit: AuditRecord, limit: number): Promise<boolean>;
  getSchedule(accountId: string, id: string): Promise<ScheduleRow | undefined>;
  listSchedules(
    accountId: string,
    filter: ScheduleFilter,
    page: PageRequest,
  ): Promise<Page<ScheduleRow>>;
  pendingSchedulesOf(accountId: string, configId: string): Promise<ScheduleRow[]>;
  /** False when the schedule is not pending (or not the account's). */
  cancelSchedule(accountId: string, id: string, at: string, audit: AuditRecord): Promise<boolean>;
  /** Ids due at `now`: pending ones, and running ones whose claim expired. */
  dueSchedules(now: string, limit: number): Promise<string[]>;
  /** The schedule claimed by `holder` until `until`; undefined when another holds it. */
  claimSchedule(
    id: string,
    holder: string,
    now: string,
    until: string,
  ): Promise<ScheduleRow | undefined>;
  /** Settles a claimed schedule failed, with its audit record and webhook event, at once. */
  failSchedule(
    schedule: ScheduleRecord,
    holder: string,
    outcome: ScheduleOutcome,
    audit: AuditRecord,
    event: { readonly type: WebhookEvent; readonly data: EventData },
  ): Promise<void>;
  /** When the next pending schedule is due; null when none is. */
  nextRunAt(): Promise<string | null>;
}
