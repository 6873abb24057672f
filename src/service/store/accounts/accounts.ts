/** Accounts and their users. An account is made with its owner and its first, live config. */
import { addAudit } from '../audit/audit-log';
import { addHistory, insertConfig, setLive } from '../configs/configs';
import type { AccountRecord, AuditRecord, UserRecord } from '../records';
import { get, insertInto, run, sql, valuesOf, type Op } from '../sql/sql';
import type { NewAccount } from '../store';

const ACCOUNT_COLUMNS = ['id', 'name', 'account_type', 'idp_organization_id', 'created_at'];
const USER_COLUMNS = ['id', 'account_id', 'email', 'role', 'idp_user_id', 'created_at'];

const INSERT_ACCOUNT = insertInto('accounts', ACCOUNT_COLUMNS);
const ANY_ACCOUNT = sql('SELECT 1 FROM accounts LIMIT 1');
const GET_ACCOUNT = sql('SELECT * FROM accounts WHERE id = ?');
const INSERT_USER = insertInto('users', USER_COLUMNS);
const GET_USER = sql('SELECT * FROM users WHERE id = ?');

/** Whether any account exists: also SQLite's health probe, a read of its file. */
export function* hasAccounts(): Op<boolean> {
  return (yield* get(ANY_ACCOUNT)) !== undefined;
}

export function* createAccount(input: NewAccount): Op<void> {
  yield* run(INSERT_ACCOUNT, ...valuesOf(input.account, ACCOUNT_COLUMNS));
  yield* run(INSERT_USER, ...valuesOf(input.owner, USER_COLUMNS));
  yield* insertConfig(input.firstConfig);
  yield* setLive(input.account.id, input.firstConfig.id);
  yield* addHistory(input.history);
  yield* addAudit(input.audit);
}

export function* getAccount(id: string): Op<AccountRecord | undefined> {
  return (yield* get(GET_ACCOUNT, id)) as AccountRecord | undefined;
}

export function* createUser(user: UserRecord, audit: AuditRecord): Op<void> {
  yield* run(INSERT_USER, ...valuesOf(user, USER_COLUMNS));
  yield* addAudit(audit);
}

export function* getUser(id: string): Op<UserRecord | undefined> {
  return (yield* get(GET_USER, id)) as UserRecord | undefined;
}
