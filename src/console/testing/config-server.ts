/**
 * An account's configs in memory, served over the contract's handlers (msw-contract.ts) for
 * the component tests of pages that read and edit configs. Edits are applied, written and
 * validated with the real config domain, so reports, ranges and revisions are the service's.
 *
 * An edit with `base_revision` is judged by the real merge judge against the edits since,
 * kept per config with their operations and the stretch of text each changed, and its typed
 * text is carried over those as the service carries it (`text_rebased`).
 */
import type { HttpHandler } from 'msw';
import {
  applyEdit,
  configJsonSchema,
  editorTextToOperations,
  parseConfig,
  validateConfigText,
} from '../../configs';
import { judgeMerge, type NewerEdit } from '../../configs/merge/merge-edits';
import { rebaseTextChanges, textChangesBetween } from '../../configs/text-edit';
import type { AuthStatus } from '../../contract/auth-status';
import type { ConfigEditRequest, ConfigEditResult } from '../../contract/config-edit';
import {
  etagOf,
  recordEtagOf,
  type ConfigRecord,
  type ConfigSummary,
  type HistoryEntry,
} from '../../contract/configs';
import { contract, type EndpointName } from '../../contract/endpoints';
import { actionKeyOf, isLifecycleAction, type Operation } from '../../contract/operations';
import { problemOf, problemTypeUri } from '../../contract/problem';
import type { Review, ReviewState } from '../../contract/reviews';
import {
  handle,
  notOffered,
  pageOf,
  type ContractReply,
  type ContractRequest,
  type ContractResolver,
} from './msw-contract';
import { ADMIN_STATUS } from './test-utils';

export const LIVE_YAML = `# Apps
apps:
  - id: checkout
    name: Checkout
    platform: web
  - id: ios-app
    name: Shop for iOS
    platform: ios
`;

const AT = '2026-11-22T10:00:00.000Z';
/** When the server's edits happen: the console can only know it from the answer. */
export const EDITED_AT = '2026-11-22T11:00:00.000Z';

function recordOf(
  fields: Pick<ConfigRecord, 'id' | 'kind' | 'label' | 'live' | 'base_config_id'> & {
    yaml: string;
    revision?: number;
  },
): ConfigRecord {
  return {
    revision: 1,
    created_at: AT,
    updated_at: AT,
    ...fields,
    validation: validateConfigText(fields.yaml, { type: fields.kind, name: fields.label }),
  };
}

export function summaryOf({ yaml: _yaml, validation, ...fields }: ConfigRecord): ConfigSummary {
  return {
    ...fields,
    valid: validation.valid,
    error_count: validation.error_count,
    warning_count: validation.warning_count,
  };
}

function withEtag(record: ConfigRecord) {
  return {
    status: 200,
    body: record,
    headers: { ETag: recordEtagOf(record) },
  } as const;
}

function notFound(id: string) {
  return { problem: problemOf('not_found', `The config ${id} was not found`) };
}

export interface ConfigServerOptions {
  /** The live config's text. */
  readonly liveYaml?: string;
  /** What GET /auth/status answers: its permissions decide what the pages offer. */
  readonly status?: AuthStatus;
  /** False: a server with only the core endpoints (of the configs', only the edit). */
  readonly offersConfigs?: boolean;
  /** The account policy's approvals_required (approvals reset on every edit). */
  readonly approvalsRequired?: number;
}

/** Who made the drafts `add` makes, unless it is told otherwise. */
export const DRAFT_AUTHOR = 'ana@example.com';

export class ConfigServer {
  readonly configs = new Map<string, ConfigRecord>();
  liveId: string;
  /** The edit requests it received. */
  readonly edits: { body: ConfigEditRequest; ifMatch: string | null }[] = [];
  /** For `server.use(...)`. */
  readonly handlers: readonly HttpHandler[];
  private nextId = 1;
  /** Each config's text at each revision it had here, by `id:revision`. */
  private readonly texts = new Map<string, string>();
  /** Each config's edits, oldest first: what a merge is judged against. */
  private readonly history = new Map<string, (NewerEdit & { summary?: string })[]>();
  private readonly email: string;
  /** Whose key the server sees: what "waiting for me" is about. */
  private readonly status: AuthStatus;
  approvalsRequired: number;
  /** Each draft's reviews, oldest first, and its review request. */
  readonly reviews = new Map<string, Review[]>();
  readonly reviewRequests = new Map<
    string,
    { by: string; at: string; publishOnApproval: boolean }
  >();
  /** Each draft's author: who may not approve it. */
  readonly authors = new Map<string, string>();

  constructor({
    liveYaml = LIVE_YAML,
    status = ADMIN_STATUS,
    offersConfigs = true,
    approvalsRequired = 0,
  }: ConfigServerOptions = {}) {
    this.email = status.email ?? status.api_key_name ?? 'API key';
    this.status = status;
    this.approvalsRequired = approvalsRequired;
    const live = recordOf({
      id: 'cfg_live',
      kind: 'published',
      label: 'Initial config',
      live: true,
      base_config_id: null,
      yaml: liveYaml,
    });
    this.configs.set(live.id, live);
    this.liveId = live.id;
    this.handlers = this.handlersOf(status, offersConfigs);
  }

  /** The config `id` (throws when there is none). */
  get(id: string): ConfigRecord {
    const record = this.configs.get(id);
    if (!record) throw new Error(`no config ${id}`);
    return record;
  }

  /** Adds a config: by default a draft of the live config with its text. */
  add(fields: Partial<ConfigRecord> & Pick<ConfigRecord, 'id' | 'label'>): void {
    const kind = fields.kind ?? 'draft';
    const made = recordOf({
      id: fields.id,
      kind,
      label: fields.label,
      live: false,
      base_config_id: kind === 'draft' ? this.liveId : null,
      yaml: fields.yaml ?? this.get(this.liveId).yaml,
    });
    const record = { ...made, ...fields };
    if (kind === 'draft' && !this.authors.has(record.id)) this.authors.set(record.id, DRAFT_AUTHOR);
    this.configs.set(fields.id, record);
    this.texts.set(`${record.id}:${record.revision}`, record.yaml);
  }

  /**
   * Someone else (`by`) saves `yaml` to a config: its revision goes up, and the history
   * keeps the edit as the operations the editor would have posted for it.
   */
  saveElsewhere(id: string, yaml: string, by = 'ana@example.com'): void {
    const record = this.get(id);
    const edit = editorTextToOperations(record.yaml, yaml);
    const operations = edit.status === 'changed' ? edit.operations : [];
    this.store(
      { ...recordOf({ ...record, yaml, revision: record.revision + 1 }), updated_at: EDITED_AT },
      { by, operations },
    );
  }

  /** A config's history entries, newest first. */
  historyOf(id: string): HistoryEntry[] {
    return (this.history.get(id) ?? [])
      .map(({ revision, by, at, operations, summary }) => ({
        at,
        action: 'edit' as const,
        config_id: id,
        revision,
        ...(summary === undefined ? {} : { summary }),
        ...(by.includes('@') ? { actor_email: by } : { api_key_name: by }),
        operations: [...operations],
        applied_paths: [],
      }))
      .reverse();
  }

  /** `record` is the config's new revision, made by an edit. */
  private store(
    record: ConfigRecord,
    edit: { by: string; operations: readonly Operation[]; summary?: string | undefined },
  ): void {
    const before = this.configs.get(record.id)?.yaml ?? '';
    this.configs.set(record.id, record);
    this.texts.set(`${record.id}:${record.revision}`, record.yaml);
    const { summary, ...rest } = edit;
    const entries = this.history.get(record.id) ?? [];
    entries.push({
      ...rest,
      revision: record.revision,
      at: EDITED_AT,
      textChanges: textChangesBetween(before, record.yaml),
      ...(summary === undefined ? {} : { summary }),
    });
    this.history.set(record.id, entries);
  }

  /**
   * The edit's operations as they apply to the target now, with `text_rebased` when the
   * typed text had to move; or the problem that refuses it.
   */
  private merged(
    body: ConfigEditRequest,
    target: ConfigRecord,
  ):
    | { operations: Operation[]; mergedRevisions: number[]; textRebased?: boolean }
    | { problem: ReturnType<typeof problemOf> } {
    const base = body.base_revision;
    if (base === undefined || base === target.revision) {
      return { operations: body.operations, mergedRevisions: [] };
    }
    const baseText = this.texts.get(`${target.id}:${base}`);
    const newer = (this.history.get(target.id) ?? []).filter((edit) => edit.revision > base);
    if (base > target.revision || baseText === undefined) {
      const detail = `The config ${target.id} is at revision ${target.revision}: base_revision ${base} is not one of its revisions`;
      return { problem: problemOf('invalid_request', detail) };
    }
    const judgment = judgeMerge({
      mine: body.operations,
      newer,
      base: () => parseConfig(baseText).document,
      current: () => parseConfig(target.yaml).document,
    });
    if (judgment.kind === 'base_unavailable') {
      return { problem: problemOf('conflict', 'The base revision cannot be rebuilt') };
    }
    if (judgment.kind === 'conflict') {
      const detail = `The edit touches what the edits since revision ${base} changed`;
      return {
        problem: problemOf('edit_conflict', detail, { conflicts: [...judgment.conflicts] }),
      };
    }
    const mergedRevisions = [...judgment.mergedRevisions];
    const operations = [...judgment.operations];
    const typed = operations.findIndex((operation) => 'edit_text' in operation);
    const text = operations[typed];
    if (!text || !('edit_text' in text) || !text.edit_text[0]) {
      return { operations, mergedRevisions };
    }
    const moved = rebaseTextChanges(
      text.edit_text[0].changes,
      newer.map((edit) => edit.textChanges),
    );
    // Not carried: the text is written from the merged operations.
    if (!moved) {
      operations.splice(typed, 1);
      return { operations, mergedRevisions, textRebased: false };
    }
    operations[typed] = { edit_text: [{ changes: moved }] };
    return { operations, mergedRevisions, textRebased: true };
  }

  /** Someone else makes the config `id` live. */
  makeLive(id: string): void {
    this.goLive(this.get(id));
  }

  /** `record` becomes the live config; a draft it was published from is used up. */
  private goLive(record: ConfigRecord, from: ConfigRecord | null = null): ConfigRecord {
    if (from?.kind === 'draft') this.configs.delete(from.id);
    this.configs.set(record.id, record);
    for (const [key, value] of this.configs) {
      this.configs.set(key, { ...value, live: key === record.id });
    }
    this.liveId = record.id;
    return this.get(record.id);
  }

  private publishedOf(from: ConfigRecord, label: string, yaml = from.yaml): ConfigRecord {
    return recordOf({
      id: `cfg_pub_${this.nextId++}`,
      kind: 'published',
      label,
      live: true,
      base_config_id: from.id,
      yaml,
    });
  }

  /** `POST /config/edit`: a draft edit, or a lifecycle step that publishes its result. */
  private edit(body: ConfigEditRequest, ifMatch: string | null): ContractReply<'editConfig'> {
    this.edits.push({ body, ifMatch });
    const target = this.configs.get(body.config_id ?? this.liveId);
    if (!target) return { problem: problemOf('not_found', 'The config was not found') };
    if (ifMatch !== null && body.base_revision !== undefined) {
      return { problem: problemOf('invalid_request', 'Send If-Match or base_revision, not both') };
    }
    const current = [etagOf(target.id, target.revision), `"${target.revision}"`];
    if (ifMatch !== null && !current.includes(ifMatch)) {
      const detail = `The config ${target.id} is at revision ${target.revision}`;
      return { problem: problemOf('precondition_failed', detail) };
    }
    const merge = this.merged(body, target);
    if ('problem' in merge) return merge;
    if (merge.textRebased === false && merge.operations.length === 0) {
      const detail = `The edit changes only the text, and its changes meet those of revisions ${merge.mergedRevisions.join(', ')}`;
      return { problem: problemOf('text_conflict', detail) };
    }
    const apply = (operations: readonly Operation[]) =>
      applyEdit({ parsed: parseConfig(target.yaml) }, operations, {
        now: new Date(EDITED_AT),
        source: { type: 'draft', name: 'Draft' },
      });
    let applied = apply(merge.operations);
    let textRebased = merge.textRebased;
    if (textRebased && applied.kind === 'refused') {
      // The moved text does not say what the operations made: the text is written instead.
      textRebased = false;
      applied = apply(merge.operations.filter((operation) => !('edit_text' in operation)));
    }
    if (applied.kind === 'too_large') {
      return { problem: problemOf('config_too_large', 'The config would be too large') };
    }
    if (applied.kind === 'refused') {
      const { code, message } = applied.refusal;
      return { problem: { ...problemOf('conflict', message), type: problemTypeUri(code), code } };
    }
    const yaml = applied.text;
    const summary = body.summary?.trim();
    let result: ConfigRecord;
    if (body.operations.some((operation) => isLifecycleAction(actionKeyOf(operation)))) {
      result = this.publishedOf(target, summary || 'Lifecycle step', yaml);
      if (!result.validation.valid) {
        return {
          problem: problemOf(
            'invalid_config',
            'The result would not be valid, and the live config must always be valid',
            { validation: result.validation },
          ),
        };
      }
      this.goLive(result, target);
    } else {
      result =
        target.kind === 'draft'
          ? {
              ...recordOf({ ...target, yaml, revision: target.revision + 1 }),
              updated_at: EDITED_AT,
            }
          : recordOf({
              id: `cfg_draft_${this.nextId++}`,
              kind: 'draft',
              label: summary ?? 'Draft',
              live: false,
              base_config_id: target.id,
              yaml,
            });
      if (result.id === target.id) {
        this.store(result, { by: this.email, operations: merge.operations, summary });
      } else {
        this.configs.set(result.id, result);
        this.texts.set(`${result.id}:${result.revision}`, result.yaml);
      }
    }
    const edited: ConfigEditResult = {
      id: result.id,
      account_id: 'acc_1',
      kind: result.kind,
      created: result.id !== target.id,
      base_config_id: target.id,
      applied_paths: applied.appliedPaths,
      applied_ranges: applied.appliedRanges,
      merged_revisions: merge.mergedRevisions,
      config: summaryOf(result),
      validation: result.validation,
      revision: result.revision,
      ...(textRebased === undefined ? {} : { text_rebased: textRebased }),
    };
    return { status: 200, body: edited, headers: { ETag: etagOf(result.id, result.revision) } };
  }

  /** The review state as the service works it out: each reviewer's latest verdict counts. */
  reviewOf(record: ConfigRecord): ReviewState {
    const required = this.approvalsRequired;
    const request = this.reviewRequests.get(record.id);
    if (record.kind !== 'draft' || !request) {
      return { state: 'none', approvals: 0, approvals_required: required };
    }
    const latest = new Map<string, Review>();
    for (const review of this.reviews.get(record.id) ?? []) {
      if (review.verdict !== 'comment') latest.set(review.by, review);
    }
    const current = [...latest.values()].filter((review) => review.revision === record.revision);
    const approvals = current.filter((review) => review.verdict === 'approve').length;
    const state = current.some((review) => review.verdict === 'request_changes')
      ? 'changes_requested'
      : approvals > 0 && approvals >= required
        ? 'approved'
        : 'in_review';
    return {
      state,
      approvals,
      approvals_required: required,
      requested_by: request.by,
      requested_at: request.at,
      publish_on_approval: request.publishOnApproval,
    };
  }

  /** `GET /configs` as the service answers it: filtered, newest first, a page at a time. */
  listConfigsReply(request: ContractRequest<'listConfigs'>) {
    const { kind, review, q } = request.query;
    const summaries = [...this.configs.values()]
      .map((record) => summaryOf(this.reviewed(record)))
      .reverse()
      .filter(
        (summary) =>
          (kind === undefined || summary.kind === kind) &&
          (q === undefined || summary.label.toLowerCase().includes(q.toLowerCase())) &&
          (review === undefined ||
            (review === 'waiting_for_me'
              ? this.waitsFor(summary, this.status)
              : (summary.review?.state ?? 'none') === review)),
      );
    return pageOf(request, summaries);
  }

  /**
   * Whether a draft waits for the review of `status`'s key, as the service says it: in review,
   * asked for by someone else, the key may give a verdict, and no approval of theirs counts.
   */
  private waitsFor(summary: ConfigSummary, status: AuthStatus): boolean {
    const review = summary.review;
    if (summary.kind !== 'draft' || review?.state !== 'in_review') return false;
    if (!status.permissions?.includes('config:publish')) return false;
    if (status.email !== undefined && review.requested_by === status.email) return false;
    return !(this.reviews.get(summary.id) ?? []).some(
      (given) =>
        given.by === status.email &&
        given.verdict === 'approve' &&
        given.revision === summary.revision,
    );
  }

  /** With its review state once the account uses review (before: as a server without review). */
  private reviewed(record: ConfigRecord): ConfigRecord {
    const inUse =
      this.approvalsRequired > 0 || this.reviewRequests.size > 0 || this.reviews.size > 0;
    return inUse ? { ...record, review: this.reviewOf(record) } : record;
  }

  private approvalMissing(draft: ConfigRecord) {
    const review = this.reviewOf(draft);
    if (this.approvalsRequired === 0 || review.state === 'approved') return null;
    const detail = `The draft ${draft.id} has ${review.approvals} of ${review.approvals_required} approvals on revision ${draft.revision}`;
    return { problem: problemOf('approval_required', detail) };
  }

  private handlersOf(status: AuthStatus, offersConfigs: boolean): HttpHandler[] {
    // A server with only the core endpoints answers the others as unknown routes.
    const serve = <N extends EndpointName>(name: N, resolve: ContractResolver<N>) =>
      offersConfigs || contract[name].seed ? handle(name, resolve) : notOffered(name);
    const existing = (id: string) => this.configs.get(id);
    return [
      serve('getAuthStatus', () => ({ status: 200, body: status })),
      serve('editConfig', ({ body, headers }) =>
        // The schema's refinement holds each operation to one action, as the type says.
        this.edit(body as ConfigEditRequest, headers['if-match'] ?? null),
      ),
      serve('listConfigs', (request) => this.listConfigsReply(request)),
      // Before getConfig: `live` is a route, not an id.
      serve('getLiveConfig', () => withEtag(this.reviewed(this.get(this.liveId)))),
      serve('getConfig', ({ params }) => {
        const record = existing(params.id);
        return record ? withEtag(this.reviewed(record)) : notFound(params.id);
      }),
      serve('getConfigSchema', () => ({ status: 200, body: { ...configJsonSchema } })),
      serve('getConfigHistory', (request) =>
        existing(request.params.id)
          ? pageOf(request, this.historyOf(request.params.id))
          : notFound(request.params.id),
      ),
      serve('deleteConfig', ({ params }) => {
        if (!this.configs.delete(params.id)) return notFound(params.id);
        return { status: 204 };
      }),
      serve('activateConfig', ({ params }) => {
        const record = existing(params.id);
        return record ? withEtag(this.goLive(record)) : notFound(params.id);
      }),
      serve('publishConfig', ({ params, body }) => {
        const draft = existing(params.id);
        if (!draft) return notFound(params.id);
        const missing = this.approvalMissing(draft);
        if (missing) return missing;
        const label = body?.summary?.trim() || draft.label;
        return withEtag(this.goLive(this.publishedOf(draft, label), draft));
      }),
      serve('listReviews', (request) =>
        existing(request.params.id)
          ? pageOf(request, this.reviews.get(request.params.id) ?? [])
          : notFound(request.params.id),
      ),
      serve('requestReview', ({ params, body }) => {
        const draft = existing(params.id);
        if (!draft) return notFound(params.id);
        if (draft.kind !== 'draft') {
          return { problem: problemOf('conflict', 'Only a draft is reviewed') };
        }
        this.reviewRequests.set(draft.id, {
          by: this.email,
          at: EDITED_AT,
          publishOnApproval: body?.publish_on_approval ?? false,
        });
        return withEtag(this.reviewed(draft));
      }),
      serve('addReview', ({ params, body }) => {
        const draft = existing(params.id);
        if (!draft) return notFound(params.id);
        if (draft.kind !== 'draft') {
          return { problem: problemOf('conflict', 'Only a draft is reviewed') };
        }
        const lineCount = draft.yaml.split('\n').length - (draft.yaml.endsWith('\n') ? 1 : 0);
        if (body.line !== undefined && body.line > lineCount) {
          const detail = `Line ${body.line} is past the last line of the draft (${lineCount})`;
          return { problem: problemOf('line_not_found', detail) };
        }
        if (body.verdict !== 'comment') {
          if (!this.reviewRequests.has(draft.id)) {
            return { problem: problemOf('review_not_requested', 'Request a review first') };
          }
          if (body.verdict === 'approve' && this.authors.get(draft.id) === this.email) {
            return { problem: problemOf('own_draft', 'You made this draft') };
          }
        }
        const reviews = this.reviews.get(draft.id) ?? [];
        const review: Review = {
          id: `rev_${this.nextId++}`,
          verdict: body.verdict,
          body: body.body ?? '',
          ...(body.line === undefined ? {} : { line: body.line }),
          revision: draft.revision,
          by: this.email,
          at: EDITED_AT,
        };
        this.reviews.set(draft.id, [...reviews, review]);
        const state = this.reviewOf(draft);
        if (
          body.verdict === 'approve' &&
          state.state === 'approved' &&
          state.publish_on_approval === true &&
          draft.validation.valid
        ) {
          const published = this.goLive(this.publishedOf(draft, draft.label), draft);
          return {
            status: 201,
            body: { review, config_review: state, published_config_id: published.id },
          };
        }
        return { status: 201, body: { review, config_review: state } };
      }),
    ];
  }
}
