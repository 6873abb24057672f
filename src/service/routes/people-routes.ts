/**
 * Members, invitations, the organization's sign-in settings, and signing in with a
 * password (docs/people.md). A sign-in answers like `GET /auth/status` and sets the cookie.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Invitations } from '../domain/invitations';
import type { Members } from '../domain/members';
import type { OrganizationSettingsService } from '../domain/organization-settings';
import { pagedList } from '../domain/pages';
import type { StartedSession } from '../domain/sessions';
import type { SignIns } from '../domain/sign-ins';
import type { PasswordSignIns } from '../domain/password-sign-ins';
import { sessionRequestRefusal, type SessionCookies } from '../plugins/session-cookies';
import { CREATED_KEY } from '../store/sql/keyset';
import { authStatusWithOwner, type OrganizationOwners } from './auth-routes';
import { registerEndpoint } from './register-endpoint';

export interface PeopleRoutesDeps {
  readonly members: Members;
  readonly invitations: Invitations;
  readonly settings: OrganizationSettingsService;
  readonly signIns: SignIns;
  readonly passwordSignIns: PasswordSignIns;
  readonly cookies: SessionCookies;
  readonly owners: OrganizationOwners;
}

/** Where the browser that asks comes from: its address and what it calls itself. */
export function clientOf(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

export function registerPeopleRoutes(app: FastifyInstance, deps: PeopleRoutesDeps): void {
  const { members, invitations, settings, signIns, passwordSignIns, cookies, owners } = deps;
  const memberPages = pagedList('members', CREATED_KEY.length);
  const invitationPages = pagedList('invitations', CREATED_KEY.length);

  /**
   * A request that starts a session must come from the console like a session's changes
   * do: a cross-site form cannot sign someone into another person's account.
   */
  const fromConsole = (request: FastifyRequest) => {
    const refusal = sessionRequestRefusal(request, cookies.serviceOrigin(request));
    if (refusal) throw refusal;
  };

  /** A session started: its cookie set, its status answered. */
  const signedIn = async (reply: FastifyReply, started: StartedSession) => {
    reply.header('set-cookie', cookies.set(started.token));
    return { body: await authStatusWithOwner(owners, started.principal, started.expiry) };
  };

  registerEndpoint(app, 'getSignInOptions', async ({ query }) => ({
    body: await signIns.options(query.email ?? ''),
  }));

  registerEndpoint(app, 'signInWithPassword', async ({ body, request, reply }) => {
    fromConsole(request);
    return signedIn(
      reply,
      await passwordSignIns.withPassword(body.email, body.password, clientOf(request)),
    );
  });

  registerEndpoint(app, 'listMembers', async ({ principal, query }) => {
    const page = await members.list(principal, memberPages.request(query));
    return { body: page.items, nextCursor: memberPages.cursorAfter(page) };
  });

  registerEndpoint(app, 'updateMember', async ({ principal, params, body }) => ({
    body: await members.setRole(principal, params.user_id, body.role),
  }));

  registerEndpoint(app, 'removeMember', async ({ principal, params }) => {
    await members.remove(principal, params.user_id);
    return { status: 204, body: undefined };
  });

  registerEndpoint(app, 'endMemberSessions', async ({ principal, params }) => ({
    body: { ended: await members.endSessions(principal, params.user_id) },
  }));

  registerEndpoint(app, 'listInvitations', async ({ principal, query }) => {
    const page = await invitations.list(principal, invitationPages.request(query));
    return { body: page.items, nextCursor: invitationPages.cursorAfter(page) };
  });

  registerEndpoint(app, 'createInvitation', async ({ principal, body, request }) => {
    const { invitation, token } = await invitations.create(principal, body);
    const link = `${cookies.serviceOrigin(request)}/invitations/${token}`;
    return { status: 201, body: { ...invitation, link } };
  });

  registerEndpoint(app, 'revokeInvitation', async ({ principal, params }) => ({
    body: await invitations.revoke(principal, params.id),
  }));

  registerEndpoint(app, 'previewInvitation', async ({ params }) => ({
    body: await invitations.preview(params.token),
  }));

  registerEndpoint(app, 'acceptInvitation', async ({ params, body, request, reply }) => {
    fromConsole(request);
    const client = clientOf(request);
    if (body.password !== undefined) {
      const started = await invitations.acceptWithPassword(
        params.token,
        { password: body.password, name: body.name },
        client,
      );
      return signedIn(reply, started);
    }
    // Without a password, the person must be signed in: the session cookie says who.
    const principal = await app.authentication.admit(request);
    return signedIn(reply, await invitations.acceptSignedIn(params.token, principal, client));
  });

  registerEndpoint(app, 'getOrganizationSettings', async ({ principal }) => ({
    body: await settings.get(principal),
  }));

  registerEndpoint(app, 'setOrganizationSettings', async ({ principal, body }) => ({
    body: await settings.set(principal, body),
  }));
}
