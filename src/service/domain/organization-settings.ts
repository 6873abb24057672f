/**
 * An organization's sign-in settings: session lengths, whether passwords may be used, its
 * own SSO connection. The client secret is write-only: kept, never shown; leaving it out of
 * a change keeps the one set before. Changes apply from every session's next request.
 */
import type { OrganizationSettings, OrganizationSettingsUpdate } from '../../contract/people';
import type { OrganizationRecord, Principal, SsoConnection } from '../store/records';
import type { Store } from '../store/store';
import { audit, type AuditActor } from './audit';
import { organizationOfAccount } from './accounts';
import type { Clock } from './clock';
import { Refused } from './refusals';
import type { SessionDefaults } from './sessions';

export class OrganizationSettingsService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly defaults: SessionDefaults,
    /** Whether the deployment has an SSO connection (`OIDC_*`) serving every organization. */
    private readonly deploymentSso: boolean,
  ) {}

  async get(principal: Principal): Promise<OrganizationSettings> {
    return this.toSettings(await this.organizationOf(principal));
  }

  async set(
    principal: Principal,
    update: OrganizationSettingsUpdate,
  ): Promise<OrganizationSettings> {
    return this.setFor(principal.account.id, principal, update);
  }

  /** The same for the organization of `accountId`, by a member or (null) the operator. */
  async setFor(
    accountId: string,
    actor: AuditActor | null,
    update: OrganizationSettingsUpdate,
  ): Promise<OrganizationSettings> {
    const organization = await organizationOfAccount(this.store, accountId);
    const earlierSecret = await this.store.getSsoSecret(organization.id);
    const secret = update.sso === null ? null : (update.sso.client_secret ?? earlierSecret);
    if (update.sso !== null && secret === null) {
      throw new Refused('invalid_field', 'A new SSO connection needs its client secret', {
        field: { path: '/sso/client_secret', message: 'required when the connection is new' },
      });
    }
    const sso: SsoConnection | null =
      update.sso === null
        ? null
        : {
            issuer: update.sso.issuer,
            client_id: update.sso.client_id,
            email_domains: [...new Set(update.sso.email_domains)],
            groups_claim: update.sso.groups_claim,
            group_roles: { ...update.sso.group_roles },
            default_role: update.sso.default_role,
            jit: update.sso.jit,
          };
    if (!update.password_sign_in && sso === null && !this.deploymentSso) {
      throw new Refused(
        'conflict',
        'Password sign-in cannot be turned off without an SSO connection: nobody could sign in',
      );
    }
    const ssoChanged =
      JSON.stringify(sso) !== JSON.stringify(organization.sso) ||
      (update.sso?.client_secret !== undefined && update.sso.client_secret !== earlierSecret);
    const at = this.clock().toISOString();
    const detail = {
      session_idle_minutes: update.session_idle_minutes,
      session_max_hours: update.session_max_hours,
      password_sign_in: update.password_sign_in,
      sso:
        sso === null
          ? null
          : {
              issuer: sso.issuer,
              client_id: sso.client_id,
              domains: sso.email_domains,
              jit: sso.jit,
            },
      ...(update.sso?.client_secret !== undefined ? { client_secret: 'replaced' } : {}),
    };
    await this.store.setOrganizationSettings(
      organization.id,
      {
        session_idle_minutes: update.session_idle_minutes,
        session_max_hours: update.session_max_hours,
        password_sign_in: update.password_sign_in,
        sso,
        sso_client_secret: secret,
        sso_changed: ssoChanged,
      },
      [audit(accountId, at, 'organization.settings', actor, organization.id, detail)],
    );
    return this.toSettings(await organizationOfAccount(this.store, accountId));
  }

  private async organizationOf(principal: Principal): Promise<OrganizationRecord> {
    const id = principal.organization?.id ?? principal.account.organization_id;
    const organization = id ? await this.store.getOrganization(id) : undefined;
    if (!organization) throw new Error(`the account ${principal.account.id} has no organization`);
    return organization;
  }

  private toSettings(organization: OrganizationRecord): OrganizationSettings {
    return {
      id: organization.id,
      name: organization.name,
      session_idle_minutes: organization.session_idle_minutes ?? this.defaults.idleMinutes,
      session_max_hours: organization.session_max_hours ?? this.defaults.maxHours,
      password_sign_in: organization.password_sign_in,
      sso:
        organization.sso === null
          ? null
          : {
              ...organization.sso,
              email_domains: [...organization.sso.email_domains],
              group_roles: { ...organization.sso.group_roles },
              client_secret_set: true,
            },
    };
  }
}
