/** Accounts and their users. An account is made with its owner and its first, live config. */
import { addAudit } from '../audit/audit-log';
import { addHistory, insertConfig, setLive } from '../configs/configs';
import type { TextMemo } from '../configs/stored-text';
import {
  addOrganizationOwner,
  getAccountRecord,
  insertAccount,
} from '../environments/environments';
import { findPersonByEmail, insertOrganization, insertPerson } from '../people/people';
import { MEMBERSHIP_COLUMNS } from '../people/rows';
import type { AccountRecord, AuditRecord, PersonRecord, UserRecord } from '../records';
import { dialects, get, insertInto, run, sql, valuesOf, type Op } from '../sql/sql';
import type { NewAccount } from '../store';

const ANY_ACCOUNT = sql('SELECT 1 FROM accounts LIMIT 1');
const INSERT_USER = insertInto('users', MEMBERSHIP_COLUMNS);
const GET_USER = sql('SELECT * FROM users WHERE id = ?');
const ORGANIZATION_OF_ACCOUNT = sql('SELECT organization_id FROM accounts WHERE id = ?');
/** PostgreSQL: the account's row lock; SQLite's BEGIN IMMEDIATE already holds the file's. */
const LOCK_ACCOUNT = dialects({
  sqlite: 'SELECT id FROM accounts WHERE id = ?',
  postgres: 'SELECT id FROM accounts WHERE id = ? FOR UPDATE',
});

/**
 * Takes the account's lock for the rest of the transaction, the one its units of work take
 * (SQLite's BEGIN IMMEDIATE already holds the file's): a write that must not interleave with
 * a publish or an edit of the account, such as deleting a webhook endpoint.
 */
export function* lockAccount(accountId: string): Op<void> {
  yield* get(LOCK_ACCOUNT, accountId);
}

/** Whether any account exists: also SQLite's health probe, a read of its file. */
export function* hasAccounts(): Op<boolean> {
  return (yield* get(ANY_ACCOUNT)) !== undefined;
}

export function* createAccount(input: NewAccount, texts: TextMemo): Op<void> {
  yield* insertOrganization(input.organization);
  yield* insertAccount({ ...input.account, organization_id: input.organization.id });
  yield* insertPerson(input.ownerPerson);
  yield* addOrganizationOwner(
    input.organization.id,
    input.ownerPerson.id,
    input.account.created_at,
  );
  yield* run(INSERT_USER, ...valuesOf(input.owner, MEMBERSHIP_COLUMNS));
  yield* insertConfig(input.firstConfig, texts);
  yield* setLive(input.account.id, input.firstConfig.id, input.firstConfig.created_at);
  yield* addHistory(input.history, texts);
  yield* addAudit(input.audit);
}

export function* getAccount(id: string): Op<AccountRecord | undefined> {
  return yield* getAccountRecord(id);
}

export function* createUser(
  user: UserRecord,
  person: PersonRecord,
  audit: AuditRecord,
): Op<UserRecord> {
  const organizationId = (yield* get(ORGANIZATION_OF_ACCOUNT, user.account_id))
    ?.organization_id as string;
  let personId = (yield* findPersonByEmail(organizationId, user.email))?.id;
  if (personId === undefined) {
    yield* insertPerson({ ...person, organization_id: organizationId });
    personId = person.id;
  }
  const made = { ...user, person_id: personId };
  yield* run(INSERT_USER, ...valuesOf(made, MEMBERSHIP_COLUMNS));
  yield* addAudit(audit);
  return made;
}

export function* getUser(id: string): Op<UserRecord | undefined> {
  return (yield* get(GET_USER, id)) as UserRecord | undefined;
}

/**
 * Whether the account may have one more of something counted by `count` (a statement of
 * one row with a column `n`): the count is read under the account's lock, so two inserts
 * racing at a cap are taken one after the other and the second sees the first.
 */
export function* belowLimit(
  accountId: string,
  limit: number,
  count: ReturnType<typeof sql>,
  ...params: unknown[]
): Op<boolean> {
  yield* get(LOCK_ACCOUNT, accountId);
  return Number((yield* get(count, ...params))?.n ?? 0) < limit;
}
