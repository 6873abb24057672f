/**
 * Server-side sessions: how long one holds (idle and absolute, the organization's lengths or
 * the deployment's), what ends it early, and the principal a request in it acts as. The
 * cookie carries 256 random bits; only their SHA-256 is kept.
 */
import { randomBytes } from 'node:crypto';
import { ROLE_PERMISSIONS } from '../../contract/auth-status';
import { SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, type Session } from '../../contract/people';
import { newId } from '../ids';
import { keyPermissions } from '../store/api-keys/api-keys';
import type { Page, PageRequest } from '../store/pages';
import { mapPage } from '../store/pages';
import type {
  ApiKeyRecord,
  OrganizationRecord,
  PersonRecord,
  KeyPrincipal,
  Principal,
  SessionRecord,
  SignInMethod,
  UserRecord,
} from '../store/records';
import type { SessionLookup } from '../store/sessions/sessions';
import type { Store } from '../store/store';
import { hashSecret } from './api-key-secrets';
import { audit, type AuditActor } from './audit';
import type { Clock } from './clock';
import { Refused } from './refusals';

/** The deployment's session lengths (`SESSION_IDLE_MINUTES`, `SESSION_MAX_HOURS`). */
export interface SessionDefaults {
  readonly idleMinutes: number;
  readonly maxHours: number;
}

export const DEFAULT_SESSION_LENGTHS: SessionDefaults = {
  idleMinutes: SESSION_IDLE_MINUTES.default,
  maxHours: SESSION_MAX_HOURS.default,
};

/** last_seen_at is written at most this often, so that reads stay reads. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** Why a session no longer holds: a 401 with this code. */
export type SessionRefusal = 'session_expired' | 'session_revoked';

export type SessionJudgement =
  | { readonly principal: Principal; readonly expiresAt: SessionExpiry }
  | { readonly refusal: SessionRefusal; readonly endReason: string | null };

export interface SessionExpiry {
  readonly idle: Date;
  readonly max: Date;
  readonly earlier: Date;
}

export interface StartedSession {
  /** The cookie's value: given to the browser once, kept nowhere. */
  readonly token: string;
  readonly principal: Principal;
  readonly expiry: SessionExpiry;
}

export interface NewSession {
  readonly person: PersonRecord;
  readonly membership: UserRecord;
  readonly method: SignInMethod;
  readonly key?: ApiKeyRecord;
  readonly ssoGeneration?: number;
  readonly idToken?: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

const MAX_USER_AGENT_LENGTH = 300;

export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly defaults: SessionDefaults,
  ) {}

  /** The session's ends under its organization's lengths as they are now. */
  expiryOf(session: SessionRecord, organization: OrganizationRecord): SessionExpiry {
    const idleMinutes = organization.session_idle_minutes ?? this.defaults.idleMinutes;
    const maxHours = organization.session_max_hours ?? this.defaults.maxHours;
    const idle = new Date(Date.parse(session.last_seen_at) + idleMinutes * 60_000);
    const max = new Date(Date.parse(session.created_at) + maxHours * 3_600_000);
    return { idle, max, earlier: idle < max ? idle : max };
  }

  /** Whether the session found by a cookie still holds, and as whom. */
  judge(found: SessionLookup, now: Date): SessionJudgement {
    const { session, organization, user, key } = found;
    if (session.ended_at !== null) {
      const expired = session.end_reason === 'expired';
      return { refusal: expired ? 'session_expired' : 'session_revoked', endReason: null };
    }
    const revokedBecause = revocationOf(found, now);
    if (revokedBecause) return { refusal: 'session_revoked', endReason: revokedBecause };
    const expiresAt = this.expiryOf(session, organization);
    if (expiresAt.earlier <= now) return { refusal: 'session_expired', endReason: 'expired' };
    const permissions = key ? keyPermissions(key, user.role) : ROLE_PERMISSIONS[user.role];
    return {
      principal: {
        key,
        session,
        permissions,
        user,
        account: found.account,
        person: found.person,
        organization,
      },
      expiresAt,
    };
  }

  /** Starts a session; the cookie's token (shown to the browser only) and the record. */
  async start(input: NewSession): Promise<{ token: string; session: SessionRecord }> {
    const { token, session } = this.newSession(input);
    const principal = principalOf(input.membership, input.key ?? null, session);
    await this.store.insertSession(
      session,
      audit(
        input.membership.account_id,
        session.created_at,
        'session.start',
        principal,
        session.id,
        {
          method: input.method,
          email: input.person.email,
        },
      ),
    );
    return { token, session };
  }

  /** A new session's token and record, for a sign-in that writes it with other things. */
  newSession(input: NewSession): { token: string; session: SessionRecord } {
    const at = this.clock().toISOString();
    const token = randomBytes(32).toString('base64url');
    return {
      token,
      session: {
        id: newId('ses_'),
        token_hash: hashSecret(token),
        person_id: input.person.id,
        user_id: input.membership.id,
        account_id: input.membership.account_id,
        api_key_id: input.key?.id ?? null,
        method: input.method,
        sso_generation: input.ssoGeneration ?? null,
        id_token: input.idToken ?? null,
        created_at: at,
        last_seen_at: at,
        ip: input.ip,
        user_agent: input.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
        ended_at: null,
        end_reason: null,
      },
    };
  }

  /** A session made from the key of a Bearer request: the console keeps the cookie, not the key. */
  async startFromKey(
    principal: KeyPrincipal,
    client: { readonly ip: string | null; readonly userAgent: string | null },
  ): Promise<StartedSession> {
    const personId = principal.user.person_id;
    const person = personId ? await this.store.getPerson(personId) : undefined;
    if (!person)
      throw new Refused('conflict', 'This API key belongs to no person; it cannot start a session');
    return this.startAndRead({
      person,
      membership: principal.user,
      method: 'api_key',
      key: principal.key,
      ...client,
    });
  }

  /** Starts a session and reads it back as the requests in it will see it. */
  async startAndRead(input: NewSession): Promise<StartedSession> {
    const { token } = await this.start(input);
    return { token, ...(await this.read(token)) };
  }

  /** A session's principal and expiry, read by its token; throws when it does not hold. */
  async read(token: string): Promise<{ principal: Principal; expiry: SessionExpiry }> {
    const found = await this.store.findSessionByHash(hashSecret(token));
    const judged = found && this.judge(found, this.clock());
    if (!judged || !('principal' in judged))
      throw new Error('a session just started does not hold');
    return { principal: judged.principal, expiry: judged.expiresAt };
  }

  /** Ends the caller's own session (sign-out). */
  async signOut(principal: Principal): Promise<void> {
    const session = principal.session;
    if (!session) return;
    const at = this.clock().toISOString();
    await this.store.endSession(
      session.id,
      at,
      'signed_out',
      audit(principal.account.id, at, 'session.sign_out', principal, session.id, {}),
    );
  }

  /** Ends a session that `judge` found over, so that it reads as ended from now on. */
  async endFound(found: SessionLookup, reason: string): Promise<void> {
    const at = this.clock().toISOString();
    const principal = principalOf(found.user, found.key, found.session);
    await this.store.endSession(
      found.session.id,
      at,
      reason,
      audit(found.account.id, at, 'session.end', principal, found.session.id, { reason }),
    );
  }

  async touch(session: SessionRecord, now: Date): Promise<void> {
    if (now.getTime() - Date.parse(session.last_seen_at) < SESSION_TOUCH_INTERVAL_MS) return;
    await this.store.touchSession(session.id, now.toISOString());
  }

  /** Restarts the idle timer at once ("Stay signed in"); the session as it now is. */
  async extend(principal: Principal): Promise<{ principal: Principal; expiry?: SessionExpiry }> {
    const { session, organization } = principal;
    if (!session || !organization) return { principal };
    const at = this.clock().toISOString();
    await this.store.touchSession(session.id, at);
    const touched = { ...session, last_seen_at: at };
    return {
      principal: { ...principal, session: touched },
      expiry: this.expiryOf(touched, organization),
    };
  }

  /** Ends one of the caller's own sessions; 404 for anyone else's. */
  async endOwn(principal: Principal, id: string): Promise<void> {
    const personId = principal.person?.id ?? principal.user.person_id;
    const session = await this.store.getSession(id);
    if (!session || session.person_id !== personId) {
      throw new Refused('not_found', `You have no session ${id}`);
    }
    const at = this.clock().toISOString();
    await this.store.endSession(
      id,
      at,
      'signed_out',
      audit(principal.account.id, at, 'session.end', principal, id, { reason: 'ended_by_owner' }),
    );
  }

  /** "Sign out everywhere else": every session of the caller's person but this one. */
  async endOthers(principal: Principal): Promise<number> {
    const personId = principal.person?.id ?? principal.user.person_id;
    if (!personId) return 0;
    const at = this.clock().toISOString();
    return this.store.endSessions(
      { personId, ...(principal.session ? { exceptId: principal.session.id } : {}) },
      at,
      'signed_out_elsewhere',
      audit(principal.account.id, at, 'session.end_others', principal, personId, {}),
    );
  }

  /** The caller's person's open sessions, newest first, the current one marked. */
  async list(principal: Principal, page: PageRequest): Promise<Page<Session>> {
    const personId = principal.person?.id ?? principal.user.person_id;
    if (!personId) return { items: [], next: undefined };
    const organization =
      principal.organization ??
      (principal.account.organization_id
        ? await this.store.getOrganization(principal.account.organization_id)
        : undefined);
    const now = this.clock();
    const open = await this.store.listOpenSessions(personId, page);
    return mapPage(open, (session) => {
      const expiry = organization
        ? this.expiryOf(session, organization).earlier
        : new Date(Date.parse(session.last_seen_at) + this.defaults.idleMinutes * 60_000);
      return {
        id: session.id,
        created_at: session.created_at,
        last_seen_at: session.last_seen_at,
        expires_at: (expiry < now ? now : expiry).toISOString(),
        ip: session.ip,
        user_agent: session.user_agent,
        method: session.method,
        current: session.id === principal.session?.id,
      };
    });
  }
}

/** What ends a session before its time, judged at each request; undefined: nothing. */
function revocationOf(found: SessionLookup, now: Date): string | undefined {
  const { session, organization, user, key } = found;
  if (user.removed_at) return 'member_removed';
  if (key) {
    if (key.revoked_at !== null) return 'key_revoked';
    if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime())
      return 'key_expired';
  }
  if (session.method === 'password' && !organization.password_sign_in)
    return 'password_sign_in_off';
  if (session.method === 'sso' && session.sso_generation !== organization.sso_generation) {
    return 'sso_changed';
  }
  return undefined;
}

/** Who the audit record of a session's start or end names. */
function principalOf(
  user: UserRecord,
  key: ApiKeyRecord | null,
  session: SessionRecord,
): AuditActor {
  return { key, user, ...(session.ip === null ? {} : { ip: session.ip }) };
}
