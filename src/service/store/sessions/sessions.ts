/**
 * Sessions: a person's sign-in, kept on the server and named by the SHA-256 of its cookie.
 * Every request in a session looks it up with its person, membership, account and
 * organization in one statement; the domain judges whether it still holds.
 */
import { addAudit } from '../audit/audit-log';
import { toApiKey } from '../api-keys/api-keys';
import type { Page, PageRequest } from '../pages';
import type {
  AccountRecord,
  ApiKeyRecord,
  AuditRecord,
  OrganizationRecord,
  PersonRecord,
  SessionRecord,
  UserRecord,
} from '../records';
import { CREATED_KEY, createdKeyOf, keysetQuery, readPage } from '../sql/keyset';
import { get, insertInto, pick, run, sql, valuesOf, type Op, type Row } from '../sql/sql';
import { toMembership, toOrganization, toPerson } from '../people/rows';

const SESSION_COLUMNS = [
  'id',
  'token_hash',
  'person_id',
  'user_id',
  'account_id',
  'api_key_id',
  'method',
  'sso_generation',
  'id_token',
  'created_at',
  'last_seen_at',
  'ip',
  'user_agent',
  'ended_at',
  'end_reason',
];

const INSERT_SESSION = insertInto('sessions', SESSION_COLUMNS);
const TOUCH_SESSION = sql('UPDATE sessions SET last_seen_at = ? WHERE id = ? AND ended_at IS NULL');
const END_SESSION = sql(
  'UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL',
);
const END_BY_PERSON = sql(
  'UPDATE sessions SET ended_at = ?, end_reason = ? WHERE person_id = ? AND id <> ? AND ended_at IS NULL',
);
const END_BY_USER = sql(
  'UPDATE sessions SET ended_at = ?, end_reason = ? WHERE user_id = ? AND ended_at IS NULL',
);
const GET_SESSION = sql('SELECT * FROM sessions WHERE id = ?');
const LIST_OPEN = keysetQuery(
  'SELECT * FROM sessions WHERE person_id = ? AND ended_at IS NULL',
  CREATED_KEY,
  'DESC',
);

/** The session and everything a request in it needs, prefixed by table. */
const SESSION_BY_HASH = sql(
  `SELECT s.*,
          u.id AS u_id, u.account_id AS u_account_id, u.email AS u_email, u.role AS u_role,
          u.idp_user_id AS u_idp_user_id, u.created_at AS u_created_at,
          u.person_id AS u_person_id, u.removed_at AS u_removed_at,
          a.name AS a_name, a.account_type AS a_account_type,
          a.idp_organization_id AS a_idp_organization_id, a.created_at AS a_created_at,
          o.id AS o_id, o.name AS o_name, o.session_idle_minutes AS o_session_idle_minutes,
          o.session_max_hours AS o_session_max_hours, o.password_sign_in AS o_password_sign_in,
          o.sso AS o_sso, o.sso_generation AS o_sso_generation, o.created_at AS o_created_at,
          p.id AS p_id, p.organization_id AS p_organization_id, p.email AS p_email,
          p.name AS p_name, p.issuer AS p_issuer, p.subject AS p_subject,
          p.created_at AS p_created_at, p.last_sign_in_at AS p_last_sign_in_at,
          k.id AS k_id, k.account_id AS k_account_id, k.user_id AS k_user_id, k.name AS k_name,
          k.key_hash AS k_key_hash, k.obfuscated_value AS k_obfuscated_value,
          k.permissions AS k_permissions, k.created_at AS k_created_at,
          k.last_used_at AS k_last_used_at, k.expires_at AS k_expires_at,
          k.revoked_at AS k_revoked_at
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     JOIN accounts a ON a.id = s.account_id
     JOIN people p ON p.id = s.person_id
     JOIN organizations o ON o.id = p.organization_id
     LEFT JOIN api_keys k ON k.id = s.api_key_id
    WHERE s.token_hash = ?`,
);

/** A session found by its cookie, whatever its state, with what it acts as. */
export interface SessionLookup {
  readonly session: SessionRecord;
  readonly user: UserRecord;
  readonly account: AccountRecord;
  readonly person: PersonRecord;
  readonly organization: OrganizationRecord;
  readonly key: ApiKeyRecord | null;
}

export function toSession(row: Row): SessionRecord {
  return {
    ...pick<SessionRecord>(row, SESSION_COLUMNS),
    sso_generation:
      row.sso_generation === null || row.sso_generation === undefined
        ? null
        : Number(row.sso_generation),
  };
}

function toSessionLookup(row: Row): SessionLookup {
  const key: ApiKeyRecord | null =
    row.k_id === null || row.k_id === undefined
      ? null
      : toApiKey(
          Object.fromEntries(
            Object.entries(row)
              .filter(([name]) => name.startsWith('k_'))
              .map(([name, value]) => [name.slice(2), value]),
          ),
        );
  return {
    session: toSession(row),
    user: toMembership(row, 'u_'),
    account: {
      id: row.account_id as string,
      name: row.a_name as string,
      account_type: row.a_account_type as string,
      idp_organization_id: row.a_idp_organization_id as string,
      created_at: row.a_created_at as string,
      organization_id: row.o_id as string,
    },
    person: toPerson(row, 'p_'),
    organization: toOrganization(row, 'o_'),
    key,
  };
}

export function* insertSession(session: SessionRecord, audit: AuditRecord | null): Op<void> {
  yield* run(INSERT_SESSION, ...valuesOf(session, SESSION_COLUMNS));
  if (audit) yield* addAudit(audit);
}

export function* findSessionByHash(tokenHash: string): Op<SessionLookup | undefined> {
  const row = yield* get(SESSION_BY_HASH, tokenHash);
  return row && toSessionLookup(row);
}

export function* getSession(id: string): Op<SessionRecord | undefined> {
  const row = yield* get(GET_SESSION, id);
  return row && toSession(row);
}

export function* touchSession(id: string, at: string): Op<void> {
  yield* run(TOUCH_SESSION, at, id);
}

/** Ends a session unless it had ended; whether this call ended it. */
export function* endSession(
  id: string,
  at: string,
  reason: string,
  audit: AuditRecord | null,
): Op<boolean> {
  const ended = (yield* run(END_SESSION, at, reason, id)) > 0;
  if (ended && audit) yield* addAudit(audit);
  return ended;
}

/** Ends the open sessions of a person (but one) or of a membership; how many. */
export function* endSessionsWhere(
  where: { readonly personId: string; readonly exceptId?: string } | { readonly userId: string },
  at: string,
  reason: string,
): Op<number> {
  if ('userId' in where) return yield* run(END_BY_USER, at, reason, where.userId);
  return yield* run(END_BY_PERSON, at, reason, where.personId, where.exceptId ?? '');
}

export function* endSessions(
  where: { readonly personId: string; readonly exceptId?: string } | { readonly userId: string },
  at: string,
  reason: string,
  audit: AuditRecord,
): Op<number> {
  const ended = yield* endSessionsWhere(where, at, reason);
  if (ended > 0) yield* addAudit(audit);
  return ended;
}

/** A person's open sessions, newest first (expired ones the domain leaves out). */
export function* listOpenSessions(personId: string, page: PageRequest): Op<Page<SessionRecord>> {
  return yield* readPage(LIST_OPEN, [personId], page, createdKeyOf, toSession);
}
