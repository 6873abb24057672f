/**
 * An organization's accounts (its environments), who is a member of which, and who owns the
 * organization: the reads behind `X-Account-Id`, `GET /accounts`, and the making of accounts.
 */
import { addAudit } from '../audit/audit-log';
import { addHistory, insertConfig, setLive } from '../configs/configs';
import type { TextMemo } from '../configs/stored-text';
import { MEMBERSHIP_COLUMNS, toMembership } from '../people/rows';
import type { AccountRecord, AuditRecord, HistoryRecord, NewConfig, UserRecord } from '../records';
import {
  all,
  get,
  insertInto,
  lookupChanged,
  run,
  sql,
  valuesOf,
  type Op,
  type Row,
} from '../sql/sql';

/** An account with the caller's membership of it. */
export interface AccountMembership {
  readonly account: AccountRecord;
  readonly membership: UserRecord;
}

const ACCOUNT_AS_A = `a.id AS a_id, a.name AS a_name, a.account_type AS a_account_type,
  a.idp_organization_id AS a_idp_organization_id, a.created_at AS a_created_at,
  a.organization_id AS a_organization_id, a.protected AS a_protected`;
const MEMBERSHIPS_OF_PERSON = `SELECT ${ACCOUNT_AS_A}, u.* FROM users u JOIN accounts a ON a.id = u.account_id
  WHERE u.person_id = ? AND u.removed_at IS NULL`;
const ACCOUNTS_OF_PERSON = sql(`${MEMBERSHIPS_OF_PERSON} ORDER BY a.created_at, a.id`);
const MEMBERSHIP_OF_PERSON = sql(`${MEMBERSHIPS_OF_PERSON} AND u.account_id = ?`);
const IS_OWNER = sql(
  'SELECT 1 AS owner FROM organization_owners WHERE organization_id = ? AND person_id = ?',
);
const OWNERS = sql(
  'SELECT person_id FROM organization_owners WHERE organization_id = ? ORDER BY created_at',
);
const INSERT_OWNER = sql(
  'INSERT INTO organization_owners (organization_id, person_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
);
const COUNT_ACCOUNTS = sql('SELECT count(*) AS accounts FROM accounts WHERE organization_id = ?');
const ACCOUNT_COLUMNS = [
  'id',
  'name',
  'account_type',
  'idp_organization_id',
  'created_at',
  'organization_id',
  'protected',
];
const INSERT_ACCOUNT = insertInto('accounts', ACCOUNT_COLUMNS);
const INSERT_MEMBERSHIP = insertInto('users', MEMBERSHIP_COLUMNS);
const UPDATE_ACCOUNT = sql(
  'UPDATE accounts SET name = COALESCE(?, name), protected = COALESCE(?, protected) WHERE id = ?',
);
const GET_ACCOUNT = sql('SELECT * FROM accounts WHERE id = ?');
const RAISE_TO_ADMIN = sql("UPDATE users SET role = 'admin' WHERE id = ? AND account_id = ?");
const ACCOUNTS_OF_ORGANIZATION = sql(
  'SELECT id FROM accounts WHERE organization_id = ? ORDER BY created_at, id',
);

/** An account row (columns optionally prefixed); `protected` is 0/1 in SQLite. */
export function toAccount(row: Row, prefix = ''): AccountRecord {
  const field = (name: string) => row[`${prefix}${name}`];
  return {
    id: field('id') as string,
    name: field('name') as string,
    account_type: field('account_type') as string,
    idp_organization_id: field('idp_organization_id') as string,
    created_at: field('created_at') as string,
    organization_id: (field('organization_id') ?? null) as string | null,
    protected: field('protected') === 1 || field('protected') === true,
  };
}

/** An account as the domain made it; `protected` is written, never left to the column's default. */
export type NewAccountRow = AccountRecord & {
  readonly organization_id: string;
  readonly protected: boolean;
};

export function* insertAccount(account: NewAccountRow): Op<void> {
  const row = { ...account, protected: account.protected ? 1 : 0 };
  yield* run(INSERT_ACCOUNT, ...valuesOf(row, ACCOUNT_COLUMNS));
}

function toAccountMembership(row: Row): AccountMembership {
  return { account: toAccount(row, 'a_'), membership: toMembership(row) };
}

/** The accounts a person is a member of, oldest first. */
export function* accountsOfPerson(personId: string): Op<AccountMembership[]> {
  return (yield* all(ACCOUNTS_OF_PERSON, personId)).map(toAccountMembership);
}

export function* accountMembershipOf(
  personId: string,
  accountId: string,
): Op<AccountMembership | undefined> {
  const row = yield* get(MEMBERSHIP_OF_PERSON, personId, accountId);
  return row && toAccountMembership(row);
}

export function* isOrganizationOwner(organizationId: string, personId: string): Op<boolean> {
  return (yield* get(IS_OWNER, organizationId, personId)) !== undefined;
}

export function* addOrganizationOwner(
  organizationId: string,
  personId: string,
  at: string,
): Op<void> {
  yield* run(INSERT_OWNER, organizationId, personId, at);
}

export function* getAccountRecord(id: string): Op<AccountRecord | undefined> {
  const row = yield* get(GET_ACCOUNT, id);
  return row && toAccount(row);
}

/** A new account of an existing organization, with its members and its first, live config. */
export interface NewEnvironment {
  readonly account: NewAccountRow;
  /** The creator first; then the organization's other owners, each an admin there too. */
  readonly memberships: readonly UserRecord[];
  readonly firstConfig: NewConfig;
  readonly history: HistoryRecord;
  readonly audit: AuditRecord;
}

/** False, writing nothing, when the organization already has `limit` accounts. */
export function* addEnvironment(
  input: NewEnvironment,
  texts: TextMemo,
  limit: number,
): Op<boolean> {
  const counted = yield* get(COUNT_ACCOUNTS, input.account.organization_id);
  if (Number(counted?.accounts ?? 0) >= limit) return false;
  yield* insertAccount(input.account);
  for (const membership of input.memberships)
    yield* run(INSERT_MEMBERSHIP, ...valuesOf(membership, MEMBERSHIP_COLUMNS));
  yield* insertConfig(input.firstConfig, texts);
  yield* setLive(input.account.id, input.firstConfig.id, input.firstConfig.created_at);
  yield* addHistory(input.history, texts);
  yield* addAudit(input.audit);
  return true;
}

/** The owners' person ids, the first owner first. */
export function* organizationOwners(organizationId: string): Op<string[]> {
  return (yield* all(OWNERS, organizationId)).map((row) => row.person_id as string);
}

export function* updateAccount(
  id: string,
  change: { readonly name?: string; readonly protected?: boolean },
  audit: AuditRecord,
): Op<AccountRecord | undefined> {
  const protectedValue = change.protected === undefined ? null : change.protected ? 1 : 0;
  yield* run(UPDATE_ACCOUNT, change.name ?? null, protectedValue, id);
  yield* addAudit(audit);
  return yield* getAccountRecord(id);
}

/**
 * Names a person an owner of the organization, with an admin membership of each account of it
 * (`memberships` for those they lack; a membership they hold is raised to admin). Returns the
 * organization's account ids.
 */
export function* nameOrganizationOwner(
  organizationId: string,
  personId: string,
  memberships: (accountId: string) => UserRecord,
  at: string,
  audit: AuditRecord,
): Op<string[]> {
  yield* run(INSERT_OWNER, organizationId, personId, at);
  const accountIds = (yield* all(ACCOUNTS_OF_ORGANIZATION, organizationId)).map(
    (row) => row.id as string,
  );
  for (const accountId of accountIds) {
    const held = yield* get(MEMBERSHIP_OF_PERSON, personId, accountId);
    if (held) yield* run(RAISE_TO_ADMIN, held.id, accountId);
    else yield* run(INSERT_MEMBERSHIP, ...valuesOf(memberships(accountId), MEMBERSHIP_COLUMNS));
  }
  yield* addAudit(audit);
  // Their raised roles and their owning change what a principal of theirs may do.
  yield* lookupChanged('principals');
  return accountIds;
}
