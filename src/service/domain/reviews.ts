/**
 * Review before publishing (docs/api.md): review requests, reviews and the account's policy.
 * Each step is one unit of work with its history entry; the last approval a draft armed with
 * publish_on_approval needs publishes it in the same unit of work.
 */
import type {
  AccountPolicy,
  NewReview,
  Review,
  ReviewRequest,
  ReviewResult,
} from '../../contract/reviews';
import type { ConfigRecord } from '../../contract/configs';
import { newId } from '../ids';
import type { ConfigRecordRow, Principal, ReviewRecord } from '../store/records';
import { mapPage, type Page, type PageRequest } from '../store/pages';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';
import { history } from './config-rows';
import { publishDraft, type ConfigService } from './config-service';
import { notFound, Refused } from './refusals';
import {
  countedApprovals,
  isApproved,
  lineCountOf,
  reviewStateOf,
  withVerdict,
} from './reviews-state';

function requireDraft(row: ConfigRecordRow | undefined, id: string): ConfigRecordRow {
  if (!row) throw notFound(`The config ${id}`);
  if (row.kind !== 'draft')
    throw new Refused(
      'not_allowed_in_state',
      `The config ${id} is published; only drafts are reviewed`,
    );
  return row;
}

export function toReviewEntry(record: ReviewRecord): Review {
  return {
    id: record.id,
    verdict: record.verdict,
    body: record.body,
    ...(record.line !== null ? { line: record.line } : {}),
    revision: record.revision,
    by: record.reviewer,
    at: record.at,
  };
}

export class Reviews {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly configs: ConfigService,
  ) {}

  getPolicy(principal: Principal): Promise<AccountPolicy> {
    return this.store.getPolicy(principal.account.id);
  }

  async setPolicy(principal: Principal, policy: AccountPolicy): Promise<AccountPolicy> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const entry = audit(accountId, at, 'account.policy', principal, accountId, {
      ...policy,
    });
    await this.store.setPolicy(accountId, policy, at, entry);
    return this.store.getPolicy(accountId);
  }

  /** POST /configs/{id}/review-request. Asking again keeps the verdicts given so far. */
  async request(principal: Principal, id: string, request: ReviewRequest): Promise<ConfigRecord> {
    const at = this.clock().toISOString();
    await this.store.changeConfigs(principal.account.id, { ids: [id] }, (tx) => {
      const draft = requireDraft(tx.get(id), id);
      tx.setReview(id, {
        requested_by: principal.user.email,
        requested_at: at,
        publish_on_approval: request.publish_on_approval ?? false,
        verdicts: draft.review?.verdicts ?? [],
      });
      const note = request.note?.trim() || null;
      tx.addHistory(history(principal, id, 'review_request', at, draft.revision, note, [], []));
    });
    return this.configs.get(principal, id);
  }

  /** POST /configs/{id}/reviews. */
  async add(principal: Principal, id: string, input: NewReview): Promise<ReviewResult> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const reviewer = principal.user.email;
    // Whoever made the draft's first edit; it never changes, so it is read before the unit of work.
    const author = input.verdict === 'approve' ? await this.authorOf(accountId, id) : undefined;
    // What an approval that publishes stores, validated against the metrics as they are now.
    const fresh =
      input.verdict === 'approve' ? await this.configs.freshReport(principal, id) : undefined;
    return this.store.changeConfigs(accountId, { ids: [id] }, (tx) => {
      const draft = requireDraft(tx.get(id), id);
      const policy = tx.policy();
      if (input.line !== undefined && input.line > lineCountOf(draft.yaml)) {
        throw new Refused(
          'line_not_found',
          `Revision ${draft.revision} of the draft ${id} has ${lineCountOf(draft.yaml)} lines, not a line ${input.line}`,
        );
      }
      let reviewed = draft;
      if (input.verdict !== 'comment') {
        if (!draft.review) {
          throw new Refused(
            'review_not_requested',
            `Nobody requested a review of the draft ${id}: request one before approving or requesting changes`,
          );
        }
        if (input.verdict === 'approve') {
          if (author === reviewer) {
            throw new Refused(
              'own_draft',
              `${reviewer} wrote the draft ${id}, so cannot approve it`,
            );
          }
          if (countedApprovals(draft, policy).includes(reviewer)) {
            throw new Refused(
              'already_approved',
              `${reviewer} already approved the draft ${id} at revision ${draft.revision}`,
            );
          }
        }
        const review = withVerdict(draft.review, reviewer, input.verdict, draft.revision);
        tx.setReview(id, review);
        reviewed = { ...draft, review };
        const summary = input.body?.trim() || null;
        tx.addHistory(history(principal, id, input.verdict, at, draft.revision, summary, [], []));
      }
      const record: ReviewRecord = {
        id: newId('rev_'),
        account_id: accountId,
        config_id: id,
        verdict: input.verdict,
        body: input.body ?? '',
        line: input.line ?? null,
        revision: draft.revision,
        api_key_id: principal.key?.id ?? null,
        reviewer,
        at,
      };
      tx.addReview(record);
      const armed =
        input.verdict === 'approve' &&
        reviewed.review?.publish_on_approval === true &&
        reviewed.valid &&
        isApproved(reviewed, policy);
      const publishedId = armed
        ? publishDraft(tx, principal, reviewed, reviewed.label, at, 'publish_on_approval', fresh)
        : undefined;
      return {
        review: toReviewEntry(record),
        config_review: reviewStateOf(reviewed, policy),
        ...(publishedId ? { published_config_id: publishedId } : {}),
      };
    });
  }

  /**
   * GET /configs/{id}/reviews. A published config shows the reviews of the draft it was
   * published from (a published config has none of its own).
   */
  async list(principal: Principal, id: string, page: PageRequest): Promise<Page<Review>> {
    const accountId = principal.account.id;
    const row = await this.store.getConfig(accountId, id);
    if (!row) throw notFound(`The config ${id}`);
    const reviewed = row.kind === 'published' ? row.base_config_id : row.id;
    if (reviewed === null) return { items: [], next: undefined };
    return mapPage(await this.store.listReviews(accountId, reviewed, page), toReviewEntry);
  }

  private async authorOf(accountId: string, id: string): Promise<string | undefined> {
    const entries = await this.store.historyAfter(accountId, id, 0);
    return entries.find((entry) => entry.action === 'edit')?.actor_email ?? undefined;
  }
}
