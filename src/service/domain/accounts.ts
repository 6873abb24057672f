/**
 * Accounts and users: what the operator's command line (and the tests' fixtures) make. The
 * API's own key endpoints go through ApiKeys.
 */
import type { Role } from '../../contract/auth-status';
import { validateConfigText } from '../../configs/validation/validate';
import { Refused } from './refusals';
import { newId } from '../ids';
import type { ValidationReport } from '../../contract/validation';
import type {
  HistoryRecord,
  NewConfig,
  OrganizationRecord,
  PersonRecord,
  Principal,
  UserRecord,
} from '../store/records';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';

/** A new account's first config: empty, published and live, so an edit always has a source. */
export const EMPTY_CONFIG_YAML = '# Apps this account provisions.\napps: []\nab_tests: []\n';

export interface CreatedAccount {
  readonly account_id: string;
  readonly account_name: string;
  readonly user_id: string;
  readonly email: string;
  readonly role: Role;
  readonly live_config_id: string;
}

export interface NewAccount {
  readonly name: string;
  readonly ownerEmail: string;
  readonly accountType?: string;
  /** Default: EMPTY_CONFIG_YAML. */
  readonly initialYaml?: string;
}

export interface NewUser {
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
}

/** What the operator makes: accounts, with their admin owner and first config, and users. */
export class Accounts {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async create(input: NewAccount): Promise<CreatedAccount> {
    const at = this.clock().toISOString();
    const accountId = newId('acc_');
    const userId = newId('usr_');
    const configId = newId('cfg_');
    const organizationId = newId('org_');
    const personId = newId('per_');
    const yaml = input.initialYaml ?? EMPTY_CONFIG_YAML;
    const label = 'Initial config';
    const report = validateConfigText(yaml, { type: 'published', name: label });
    if (!report.valid) throw new Error('the initial config of an account must be valid');
    await this.store.createAccount({
      account: {
        id: accountId,
        name: input.name,
        account_type: input.accountType ?? 'production',
        idp_organization_id: organizationId,
        created_at: at,
        // Unprotected, whatever its type: nobody is asked to type its name until an admin
        // protects it (an owner's production accounts are protected from the start).
        protected: false,
      },
      // Each account made by the operator starts an organization of its own.
      organization: { id: organizationId, name: input.name, created_at: at },
      ownerPerson: newPerson(personId, organizationId, input.ownerEmail, at),
      owner: {
        id: userId,
        account_id: accountId,
        email: input.ownerEmail,
        role: 'admin',
        idp_user_id: newId('idp_'),
        created_at: at,
        person_id: personId,
      },
      ...firstConfigOf({
        accountId,
        configId,
        label,
        yaml,
        report,
        at,
        summary: label,
        actor: null,
      }),
      audit: audit(accountId, at, 'account.create', null, accountId, {
        name: input.name,
        owner: input.ownerEmail,
      }),
    });
    return {
      account_id: accountId,
      account_name: input.name,
      user_id: userId,
      email: input.ownerEmail,
      role: 'admin',
      live_config_id: configId,
    };
  }

  /** The user as made: joined to the person of that email in the organization, or a new one. */
  async addUser(input: NewUser): Promise<UserRecord> {
    if (!(await this.store.getAccount(input.accountId))) {
      throw new Refused('not_found', `There is no account ${input.accountId}`);
    }
    const at = this.clock().toISOString();
    const user: UserRecord = {
      id: newId('usr_'),
      account_id: input.accountId,
      email: input.email,
      role: input.role,
      idp_user_id: newId('idp_'),
      created_at: at,
    };
    await this.store.createUser(
      user,
      newPerson(newId('per_'), '', input.email, at),
      audit(input.accountId, at, 'user.create', null, user.id, {
        email: input.email,
        role: input.role,
      }),
    );
    return user;
  }
}

/** A person who has not signed in yet: no password, no identity provider. */
export function newPerson(
  id: string,
  organizationId: string,
  email: string,
  at: string,
): PersonRecord {
  return {
    id,
    organization_id: organizationId,
    email,
    name: null,
    issuer: null,
    subject: null,
    password_hash: null,
    created_at: at,
    last_sign_in_at: null,
  };
}

/** The organization an account belongs to (every account has one). */
export async function organizationOfAccount(
  store: Store,
  accountId: string,
): Promise<OrganizationRecord> {
  const account = await store.getAccount(accountId);
  const organization = account?.organization_id
    ? await store.getOrganization(account.organization_id)
    : undefined;
  if (!organization) throw new Error(`the account ${accountId} has no organization`);
  return organization;
}

/** What a new account's first config needs: its text checked, and who made it. */
export interface FirstConfigInput {
  readonly accountId: string;
  readonly configId: string;
  readonly label: string;
  readonly yaml: string;
  readonly report: ValidationReport;
  readonly at: string;
  /** Its one history entry's summary. */
  readonly summary: string;
  /** Who made the account; null for the operator. */
  readonly actor: Pick<Principal, 'key' | 'user'> | null;
}

/** A new account's first config, published and live, and its one history entry. */
export function firstConfigOf(input: FirstConfigInput): {
  firstConfig: NewConfig;
  history: HistoryRecord;
} {
  const { accountId, configId, label, report, at, actor } = input;
  return {
    firstConfig: {
      id: configId,
      account_id: accountId,
      kind: 'published',
      label,
      yaml: report.yaml ?? input.yaml,
      revision: 1,
      base_config_id: null,
      valid: true,
      error_count: 0,
      warning_count: report.warning_count,
      issues: report.issues,
      created_at: at,
      updated_at: at,
      published_at: at,
    },
    history: {
      account_id: accountId,
      config_id: configId,
      action: 'create',
      at,
      revision: 1,
      summary: input.summary,
      api_key_id: actor?.key?.id ?? null,
      api_key_name: actor?.key?.name ?? null,
      actor_email: actor?.user.email ?? null,
      operations: [],
      applied_paths: [],
    },
  };
}
