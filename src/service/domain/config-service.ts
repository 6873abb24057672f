/**
 * What the config endpoints do (docs/api.md): edits land in drafts (config-edits.ts),
 * lifecycle operations publish, publish / activate / discard move the live pointer and the
 * drafts. Every change is one unit of work in the store: all of it lands or none does, and
 * the live config is always valid.
 */
import type { ConfigEditRequest, ConfigKind } from '../../contract/config-edit';
import type {
  ConfigRecord,
  ConfigReviewFilter,
  ConfigRevision,
  ConfigSummary,
  HistoryEntry,
} from '../../contract/configs';
import type { EditPool } from '../edit-work/edit-pool';
import { notFound, Refused } from './refusals';
import { newId } from '../ids';
import type { ConfigListFilter } from '../store/configs/configs';
import { mapPage, type Page, type PageRequest } from '../store/pages';
import type { ConfigRecordRow, ConfigSummaryRow, Principal } from '../store/records';
import type { ConfigTransaction, Store } from '../store/store';
import type { Clock } from './clock';
import {
  ConfigEdits,
  type EditOutcome,
  type ExpectedTarget,
  type FreshReport,
} from './config-edits';
import { history, newRow, storedReport, toHistoryEntry, toRecord, toSummary } from './config-rows';
import { countedApprovals, requireApprovals } from './reviews-state';
import { addConfigPublished } from './webhook-events';
import { audit } from './audit';
import { configRevision } from './config-revisions';

/** What GET /configs filters on, as the query says it. */
export interface ConfigListFilters {
  readonly kind?: ConfigKind | undefined;
  readonly review?: ConfigReviewFilter | undefined;
  readonly q?: string | undefined;
}

/**
 * More writes for the change's own unit of work, given the config it stored: they commit with
 * it or not at all (a scheduled change marks itself done this way).
 */
export type WithinUnit = (tx: ConfigTransaction, resultConfigId: string) => void;

export class ConfigService {
  private readonly edits: ConfigEdits;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    editPool: EditPool,
  ) {
    this.edits = new ConfigEdits(store, clock, editPool);
  }

  /**
   * GET /configs. The review state follows from each draft's review and the policy, so SQL
   * narrows to drafts whose review was asked for and the state is judged here, reading on
   * until the page is full: drafts under review are few beside the published versions.
   */
  async list(
    principal: Principal,
    query: ConfigListFilters,
    page: PageRequest,
  ): Promise<Page<ConfigSummary>> {
    const accountId = principal.account.id;
    const { review } = query;
    const filter: ConfigListFilter = {
      kind: review === undefined || review === 'none' ? query.kind : 'draft',
      review: review === undefined ? undefined : review === 'none' ? 'none' : 'requested',
      labelContains: query.q,
    };
    if (query.kind === 'published' && review !== undefined && review !== 'none') {
      return { items: [], next: undefined };
    }
    if (review === 'waiting_for_me' && !principal.permissions.includes('config:publish')) {
      return { items: [], next: undefined };
    }
    const policy = await this.store.getPolicy(accountId);
    if (review === undefined || review === 'none') {
      const { configs, liveId } = await this.store.listConfigs(accountId, filter, page);
      return mapPage(configs, (row) => toSummary(row, liveId, policy));
    }
    const matches = (summary: ConfigSummary, row: ConfigSummaryRow): boolean => {
      const state = summary.review?.state;
      if (review !== 'waiting_for_me') return state === review;
      const me = principal.user.email;
      return (
        state === 'in_review' &&
        row.review?.requested_by !== me &&
        !countedApprovals(row, policy).includes(me)
      );
    };
    const items: ConfigSummary[] = [];
    let after = page.after;
    for (;;) {
      const { configs, liveId } = await this.store.listConfigs(accountId, filter, {
        limit: page.limit,
        after,
      });
      for (const row of configs.items) {
        const summary = toSummary(row, liveId, policy);
        if (matches(summary, row)) items.push(summary);
      }
      if (items.length > page.limit) {
        const shown = items.slice(0, page.limit);
        const last = shown[shown.length - 1] as ConfigSummary;
        return { items: shown, next: [last.created_at, last.id] };
      }
      if (configs.next === undefined) return { items, next: undefined };
      after = configs.next;
    }
  }

  async get(principal: Principal, id: string): Promise<ConfigRecord> {
    const accountId = principal.account.id;
    const [row, liveId, policy, schedules] = await Promise.all([
      this.store.getConfig(accountId, id),
      this.store.getLiveId(accountId),
      this.store.getPolicy(accountId),
      this.store.pendingSchedulesOf(accountId, id),
    ]);
    if (!row) throw notFound(`The config ${id}`);
    // Part of the record (when there are any), so its ETag changes as changes are scheduled
    // and run.
    const pending = schedules.map(({ id: scheduleId, action, run_at }) => ({
      id: scheduleId,
      action,
      at: run_at,
    }));
    const record = toRecord(row, liveId, policy);
    return pending.length > 0 ? { ...record, pending_schedules: pending } : record;
  }

  async getLive(principal: Principal): Promise<ConfigRecord> {
    const liveId = await this.store.getLiveId(principal.account.id);
    if (!liveId) throw notFound('A live config');
    return this.get(principal, liveId);
  }

  async history(principal: Principal, id: string, page: PageRequest): Promise<Page<HistoryEntry>> {
    if (!(await this.store.getConfig(principal.account.id, id))) throw notFound(`The config ${id}`);
    return mapPage(await this.store.history(principal.account.id, id, page), toHistoryEntry);
  }

  /** GET /configs/{id}/revisions/{revision} (config-revisions.ts). */
  revision(principal: Principal, id: string, revision: number): Promise<ConfigRevision> {
    return configRevision(this.store, principal, id, revision);
  }

  /** POST /config/edit (config-edits.ts). */
  edit(
    principal: Principal,
    request: ConfigEditRequest,
    expected?: ExpectedTarget,
    within?: WithinUnit,
  ): Promise<EditOutcome> {
    return this.edits.edit(principal, request, expected, within);
  }

  /** A draft's report as its publish stores it (config-edits.ts, `revalidated`). */
  freshReport(principal: Principal, id: string): Promise<FreshReport | undefined> {
    return this.edits.revalidated(principal.account.id, id);
  }

  /** POST /configs/{id}/publish: a valid draft becomes a new published version, live. */
  async publish(
    principal: Principal,
    id: string,
    summary?: string,
    within?: WithinUnit,
  ): Promise<ConfigRecord> {
    const fresh = await this.freshReport(principal, id);
    const at = this.clock().toISOString();
    const publishedId = await this.store.changeConfigs(
      principal.account.id,
      { ids: [id] },
      (tx) => {
        const draft = tx.get(id);
        if (!draft) throw notFound(`The config ${id}`);
        const label = summary?.trim() || draft.label;
        const published = publishDraft(tx, principal, draft, label, at, 'publish', fresh);
        within?.(tx, published);
        return published;
      },
    );
    return this.get(principal, publishedId);
  }

  /** POST /configs/{id}/activate: an earlier published version becomes live again. */
  async activate(principal: Principal, id: string): Promise<ConfigRecord> {
    const at = this.clock().toISOString();
    await this.store.changeConfigs(principal.account.id, { ids: [id] }, (tx) => {
      const config = tx.get(id);
      if (!config) throw notFound(`The config ${id}`);
      if (config.kind !== 'published')
        throw new Refused(
          'not_allowed_in_state',
          `The config ${id} is a draft; publish it instead`,
        );
      // Published configs were valid when published; rules may have grown since.
      if (!config.valid) {
        throw new Refused(
          'invalid_config',
          `The config ${id} is not valid under the current rules`,
          { report: storedReport(config) },
        );
      }
      tx.setLive(id, at);
      tx.addHistory(history(principal, id, 'activate', at, config.revision, config.label, [], []));
      addConfigPublished(tx, principal, config, 'activate', at);
    });
    return this.get(principal, id);
  }

  /** DELETE /configs/{id}: discards a draft. */
  async discard(principal: Principal, id: string): Promise<void> {
    const at = this.clock().toISOString();
    await this.store.changeConfigs(principal.account.id, { ids: [id] }, (tx) => {
      const config = tx.get(id);
      if (!config) throw notFound(`The config ${id}`);
      if (config.kind !== 'draft')
        throw new Refused(
          'not_allowed_in_state',
          `The config ${id} is published; only drafts can be discarded`,
        );
      tx.close(id, 'discarded', at);
      tx.addAudit(
        audit(principal.account.id, at, 'config.discard', principal, id, { label: config.label }),
      );
    });
  }
}

/**
 * Publishes `draft` in the unit of work `tx`: refused unless it is a valid draft with the
 * approvals the account's policy asks for. Returns the new published config's id. `fresh`,
 * the draft's report validated again before the unit of work, serves when it is of the
 * draft's revision; else the report stored with the draft.
 */
export function publishDraft(
  tx: ConfigTransaction,
  principal: Principal,
  draft: ConfigRecordRow,
  label: string,
  at: string,
  action: 'publish' | 'publish_on_approval',
  fresh?: FreshReport,
): string {
  if (draft.kind !== 'draft')
    throw new Refused(
      'not_allowed_in_state',
      `The config ${draft.id} is already published; only drafts are published`,
    );
  const stored = storedReport({ ...draft, kind: 'published', label });
  const report =
    fresh?.revision === draft.revision ? { ...fresh.report, source: stored.source } : stored;
  if (!report.valid) {
    throw new Refused(
      'invalid_config',
      `The draft has ${report.error_count} error${report.error_count === 1 ? '' : 's'}; fix them before publishing`,
      { report },
    );
  }
  requireApprovals(draft, tx.policy());
  const publishedId = newId('cfg_');
  tx.insert(
    newRow({
      id: publishedId,
      kind: 'published',
      label,
      report,
      base: draft.id,
      at,
      published: true,
    }),
  );
  tx.setLive(publishedId, at);
  tx.close(draft.id, 'published', at);
  tx.addHistory(history(principal, publishedId, action, at, 1, label, [], []));
  addConfigPublished(
    tx,
    principal,
    { id: publishedId, label, revision: 1, published_at: at },
    action,
    at,
  );
  return publishedId;
}
