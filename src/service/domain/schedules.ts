/**
 * Scheduled changes: a publish, or one A/B test step, made at a time as the person who
 * scheduled it would make it by hand then (their permission and the review policy as they
 * are at that moment). A change that cannot run changes nothing and fails in words.
 */
import { ROLE_PERMISSIONS } from '../../contract/auth-status';
import {
  MAX_SCHEDULE_AHEAD_DAYS,
  type CreateScheduleRequest,
  type Schedule,
  type ScheduleStatus,
} from '../../contract/environments';
import { actionKeyOf, isLifecycleAction, type Operation } from '../../contract/operations';
import { newId } from '../ids';
import { keyPermissions } from '../store/api-keys/api-keys';
import type { Page, PageRequest } from '../store/pages';
import type { Principal, ScheduleRecord, ScheduleRow } from '../store/records';
import { ScheduleClaimLost } from '../store/schedules/schedules';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';
import type { ConfigService, WithinUnit } from './config-service';
import { EditRefused } from './edit-refusals';
import { LIMITS, limitReached } from './limits';
import { Refused } from './refusals';

const DAY_MS = 86_400_000;

export function scheduleAnswer(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    account_id: row.account_id,
    config_id: row.config_id,
    action: row.action,
    ...(row.operations ? { operations: [...row.operations] } : {}),
    summary: row.summary,
    at: row.run_at,
    status: row.status,
    reason: row.reason,
    result_config_id: row.result_config_id,
    scheduled_by: { user_id: row.user_id, email: row.email, api_key_id: row.api_key_id },
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

/** Why a scheduled change could not run, in words for the person who scheduled it. */
class CannotRun extends Error {}

export type ScheduleRun = 'done' | 'failed' | 'lost';

export class Schedules {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly configs: ConfigService,
  ) {}

  async create(principal: Principal, input: CreateScheduleRequest): Promise<Schedule> {
    const now = this.clock();
    const runAt = Date.parse(input.at);
    if (runAt <= now.getTime() || runAt > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * DAY_MS) {
      throw new Refused('invalid_field', 'The time must be in the future and within a year', {
        field: { path: '/at', message: 'must be in the future and within a year' },
      });
    }
    // operationSchema has checked that each holds exactly one action key.
    const operations = (input.operations ?? null) as readonly Operation[] | null;
    if (input.action === 'ab_test') {
      const [operation] = operations ?? [];
      if (!operation || !isLifecycleAction(actionKeyOf(operation))) {
        throw new Refused('invalid_field', 'An A/B step needs one lifecycle operation', {
          field: {
            path: '/operations',
            message:
              'give exactly one of update_ab_test, start_ab_test, end_ab_test, promote_ab_test, delete_ab_test',
          },
        });
      }
    } else if (operations !== null) {
      throw new Refused('invalid_field', 'A scheduled publish takes no operations', {
        field: { path: '/operations', message: 'is only for action ab_test' },
      });
    }
    const config = await this.store.getConfig(principal.account.id, input.config_id);
    if (!config) throw new Refused('not_found', `The config ${input.config_id} was not found`);
    if (input.action === 'publish' && config.kind !== 'draft') {
      throw new Refused(
        'not_allowed_in_state',
        `The config ${input.config_id} is published already: schedule the publish of a draft`,
      );
    }
    const at = now.toISOString();
    const record: ScheduleRecord = {
      id: newId('sch_'),
      account_id: principal.account.id,
      config_id: input.config_id,
      action: input.action,
      operations,
      summary: input.summary?.trim() || null,
      run_at: new Date(runAt).toISOString(),
      user_id: principal.user.id,
      api_key_id: principal.key?.id ?? null,
      status: 'pending',
      claimed_by: null,
      claimed_until: null,
      reason: null,
      result_config_id: null,
      created_at: at,
      finished_at: null,
    };
    const made = await this.store.insertSchedule(
      record,
      audit(principal.account.id, at, 'schedule.create', principal, record.id, {
        config_id: record.config_id,
        action: record.action,
        at: record.run_at,
      }),
      LIMITS.pending_schedules,
    );
    if (!made) throw limitReached('pending_schedules');
    return this.get(principal, record.id);
  }

  async get(principal: Principal, id: string): Promise<Schedule> {
    const row = await this.store.getSchedule(principal.account.id, id);
    if (!row) throw new Refused('not_found', `The schedule ${id} was not found`);
    return scheduleAnswer(row);
  }

  async list(
    principal: Principal,
    filter: {
      readonly status?: ScheduleStatus | undefined;
      readonly configId?: string | undefined;
    },
    page: PageRequest,
  ): Promise<Page<ScheduleRow>> {
    return this.store.listSchedules(principal.account.id, filter, page);
  }

  async cancel(principal: Principal, id: string): Promise<Schedule> {
    const at = this.clock().toISOString();
    const cancelled = await this.store.cancelSchedule(
      principal.account.id,
      id,
      at,
      audit(principal.account.id, at, 'schedule.cancel', principal, id, {}),
    );
    if (!cancelled) {
      const row = await this.store.getSchedule(principal.account.id, id);
      if (!row) throw new Refused('not_found', `The schedule ${id} was not found`);
      throw new Refused('not_allowed_in_state', `The schedule ${id} is ${row.status}, not pending`);
    }
    return this.get(principal, id);
  }

  /**
   * Runs a schedule this instance claimed as `holder`: done with the change's own unit of
   * work, else failed with the reason. 'lost' when another instance took the claim over.
   */
  async run(schedule: ScheduleRow, holder: string): Promise<ScheduleRun> {
    const at = this.clock().toISOString();
    const within: WithinUnit = (tx, resultConfigId) =>
      tx.settleSchedule(schedule.id, holder, {
        status: 'done',
        reason: null,
        resultConfigId,
        at,
      });
    let principal: Principal | undefined;
    try {
      principal = await this.principalOf(schedule);
      const summary = schedule.summary ?? `Scheduled by ${schedule.email}`;
      if (schedule.action === 'publish') {
        await this.configs.publish(principal, schedule.config_id, summary, within);
      } else {
        await this.configs.edit(
          principal,
          { config_id: schedule.config_id, operations: [...(schedule.operations ?? [])], summary },
          undefined,
          within,
        );
      }
      return 'done';
    } catch (error) {
      if (error instanceof ScheduleClaimLost) return 'lost';
      const reason = reasonOf(error);
      if (reason === undefined) throw error;
      await this.store.failSchedule(
        schedule,
        holder,
        { status: 'failed', reason, resultConfigId: null, at },
        audit(schedule.account_id, at, 'schedule.failed', principal ?? null, schedule.id, {
          config_id: schedule.config_id,
          action: schedule.action,
          reason,
        }),
        {
          type: 'schedule.failed',
          data: () => ({
            schedule: scheduleAnswer({ ...schedule, status: 'failed', reason, finished_at: at }),
          }),
        },
      );
      return 'failed';
    }
  }

  /** Whom the change runs as: the scheduler, with the rights they hold now. */
  private async principalOf(schedule: ScheduleRow): Promise<Principal> {
    const user = await this.store.getUser(schedule.user_id);
    const account = await this.store.getAccount(schedule.account_id);
    if (!user || user.removed_at || !account)
      throw new CannotRun(`${schedule.email} is no longer a member of the account`);
    const key = schedule.api_key_id ? await this.store.findApiKey(schedule.api_key_id) : null;
    if (key === undefined) throw new CannotRun('The API key that scheduled it no longer exists');
    if (key?.revoked_at)
      throw new CannotRun(`The API key ${key.name} that scheduled it was revoked`);
    if (key?.expires_at && Date.parse(key.expires_at) <= this.clock().getTime())
      throw new CannotRun(`The API key ${key.name} that scheduled it has expired`);
    const permissions = key ? keyPermissions(key, user.role) : ROLE_PERMISSIONS[user.role];
    if (!permissions.includes('config:publish')) {
      throw new CannotRun(
        `${schedule.email} no longer holds the permission config:publish (role ${user.role})`,
      );
    }
    return { key: key ?? null, session: null, permissions, user, account };
  }
}

/** The refusal's words, for a change that could not run; undefined for a fault to retry. */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof CannotRun || error instanceof Refused || error instanceof EditRefused)
    return error.message;
  return undefined;
}
