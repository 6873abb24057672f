/**
 * Promotion between two accounts of an organization: what would change in the target, and
 * a draft in the target holding the operations that make its chosen items equal to the
 * source's. Nothing goes live by promotion alone: the draft then follows the target's merges,
 * review policy and publish like any other.
 */
import { ROLE_PERMISSIONS } from '../../contract/auth-status';
import type { PromotionPreview, PromotionRequest } from '../../contract/promotions';
import { configData, parseConfig } from '../../configs/parse';
import { planPromotion, type PromotionPlan } from '../../configs/promotion/promotion';
import type { ConfigRecordRow, Principal } from '../store/records';
import type { Store } from '../store/store';
import type { ConfigService } from './config-service';
import { membershipInOrganization } from './environments';
import { Refused } from './refusals';
import type { EditOutcome } from './stored-edit';

type PreviewRequest = Omit<PromotionRequest, 'summary'>;

interface Compared {
  readonly source: ConfigRecordRow;
  readonly sourceName: string;
  readonly target: ConfigRecordRow;
  readonly targetPrincipal: Principal;
  readonly plan: PromotionPlan;
}

export class Promotions {
  constructor(
    private readonly store: Store,
    private readonly configs: ConfigService,
  ) {}

  async preview(principal: Principal, request: PreviewRequest): Promise<PromotionPreview> {
    const { source, target, plan } = await this.compare(principal, request);
    return {
      from_account: request.from_account,
      to_account: request.to_account,
      from_config_id: source.id,
      from_revision: source.revision,
      to_config_id: target.id,
      differences: plan.differences.map((difference) => ({
        ...difference,
        source: difference.source ?? null,
        target: difference.target ?? null,
      })),
      operations: plan.operations,
      not_promotable: plan.not_promotable,
    };
  }

  /** The draft in the target, made from its live config as it was compared (else 412). */
  async create(principal: Principal, request: PromotionRequest): Promise<EditOutcome> {
    const { source, sourceName, target, targetPrincipal, plan } = await this.compare(
      principal,
      request,
    );
    if (plan.operations.length === 0) {
      throw new Refused(
        'not_allowed_in_state',
        plan.not_promotable.length > 0
          ? `Nothing can be promoted: ${plan.not_promotable.map((item) => item.reason).join('; ')}`
          : 'Nothing to promote: the chosen items are the same in both accounts',
      );
    }
    const from = `promoted from ${sourceName} (${request.from_account}): config ${source.id}, revision ${source.revision}`;
    return this.configs.edit(
      targetPrincipal,
      { operations: plan.operations, summary: `${request.summary.trim()} (${from})` },
      { id: target.id, revision: target.revision },
    );
  }

  private async compare(principal: Principal, request: PreviewRequest): Promise<Compared> {
    if (request.from_account === request.to_account) {
      throw new Refused('invalid_field', 'Promote from one account to another', {
        field: { path: '/to_account', message: 'must be another account than from_account' },
      });
    }
    const targetPrincipal = await this.targetPrincipal(principal, request.to_account);
    const sourceAccount = await this.member(principal, request.from_account, '/from_account');
    const sourceId = request.from_config ?? (await this.store.getLiveId(request.from_account));
    const source =
      sourceId === undefined
        ? undefined
        : await this.store.getConfig(request.from_account, sourceId);
    if (!source) {
      throw new Refused(
        'not_found',
        `The config ${sourceId ?? '(live)'} of ${request.from_account} was not found`,
      );
    }
    const targetId = await this.store.getLiveId(request.to_account);
    const target =
      targetId === undefined ? undefined : await this.store.getConfig(request.to_account, targetId);
    if (!target) throw new Refused('not_found', `${request.to_account} has no live config`);
    const plan = planPromotion(
      dataOf(source, request.from_account),
      dataOf(target, request.to_account),
      request.items,
    );
    return { source, sourceName: sourceAccount.name, target, targetPrincipal, plan };
  }

  /** Who writes the draft: the caller acting on the target (config:write there). */
  private async targetPrincipal(principal: Principal, accountId: string): Promise<Principal> {
    if (accountId === principal.account.id) return principal;
    if (principal.key) {
      throw new Refused(
        'not_permitted',
        `An API key promotes into its own account (${principal.account.id}); name ${accountId} in X-Account-Id to act there`,
      );
    }
    const { account, membership } = await this.membership(principal, accountId, '/to_account');
    const permissions = ROLE_PERMISSIONS[membership.role];
    if (!permissions.includes('config:write')) {
      throw new Refused(
        'not_permitted',
        `Your role in ${account.name} (${membership.role}) lacks the permission config:write`,
      );
    }
    return { ...principal, account, user: membership, permissions };
  }

  /** The source: the caller's person must be a member there (every role reads configs). */
  private async member(principal: Principal, accountId: string, path: string) {
    return (await this.membership(principal, accountId, path)).account;
  }

  private membership(principal: Principal, accountId: string, path: string) {
    return membershipInOrganization(
      this.store,
      principal,
      accountId,
      () =>
        new Refused('invalid_field', `You are not a member of an account ${accountId}`, {
          field: { path, message: 'is not an account of your organization you are a member of' },
        }),
    );
  }
}

/** A config's data; a draft source that does not parse cannot be compared. */
function dataOf(config: ConfigRecordRow, accountId: string): unknown {
  const read = configData(parseConfig(config.yaml));
  if (!read.ok) {
    throw new Refused(
      'invalid_config',
      `The config ${config.id} of ${accountId} does not parse: fix it before promoting it`,
      {
        report: {
          valid: false,
          error_count: read.issues.length,
          warning_count: 0,
          issues: [...read.issues],
          yaml: config.yaml,
          source: { type: config.kind, name: config.label },
        },
      },
    );
  }
  return read.data;
}
