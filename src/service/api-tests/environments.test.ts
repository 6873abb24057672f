/**
 * Environments on both stores: an organization owner makes accounts (from a copy of another's
 * live config), owners' keys and people reaching several accounts name one in X-Account-Id,
 * and everyone else acts on their own account only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_HEADER } from '../../contract/request-headers';
import {
  dataOf,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
} from '../testing/api';
import { invitedPersonInSession, sendInSession, sessionFromKey } from '../testing/sessions';
import { startTestService, type TestService } from '../testing/test-service';

let time: ReturnType<typeof manualClock>;
let service: TestService;

beforeEach(async () => {
  time = manualClock();
  service = await startTestService({ clock: time.clock, initialYaml: SHOP_YAML });
});
afterEach(async () => {
  await service.close();
});

async function createStaging(name = 'Staging', extra: Record<string, unknown> = {}) {
  return ok(service, service.adminKey, 'createAccount', {
    payload: { name, account_type: 'staging', ...extra },
  });
}

/** The signed-in person (`cookie`) accepts an invitation into `accountId` as a viewer. */
async function joinInSession(cookie: string, email: string, accountId: string) {
  const invited = await ok(service, service.adminKey, 'createInvitation', {
    payload: { email, role: 'viewer' },
    headers: { [ACCOUNT_HEADER]: accountId },
  });
  expectSuccess(
    'acceptInvitation',
    await sendInSession(service, cookie, 'acceptInvitation', {
      params: { token: invited.link.split('/').pop() as string },
      payload: {},
    }),
  );
}

describe('accounts of an organization', () => {
  it('lets an owner make an environment from a copy of another live config', async () => {
    const source = await ok(service, service.adminKey, 'getLiveConfig');
    const staging = await createStaging('Staging', { copy_from: service.account.account_id });
    expect(staging).toMatchObject({
      name: 'Staging',
      account_type: 'staging',
      protected: false,
      role: 'admin',
    });
    // The owner's key acts on the new account by naming it.
    const inStaging = { headers: { [ACCOUNT_HEADER]: staging.id } };
    const live = await ok(service, service.adminKey, 'getLiveConfig', inStaging);
    expect(live.id).toBe(staging.live_config_id);
    expect(dataOf(live.yaml)).toEqual(dataOf(source.yaml));
    const history = await ok(service, service.adminKey, 'getConfigHistory', {
      params: { id: live.id },
      ...inStaging,
    });
    expect(history[0]?.summary).toBe(
      `Copied from Test account (${service.account.account_id}): config ${source.id}, revision ${source.revision}`,
    );
    const status = await ok(service, service.adminKey, 'getAuthStatus', inStaging);
    expect(status).toMatchObject({ account_id: staging.id, user_id: staging.user_id });
    expect(status.idp_organization_id).toBe(staging.organization_id);

    const accounts = await ok(service, service.adminKey, 'listAccounts');
    expect(accounts.map(({ name, account_type, role }) => ({ name, account_type, role }))).toEqual([
      { name: 'Test account', account_type: 'production', role: 'admin' },
      { name: 'Staging', account_type: 'staging', role: 'admin' },
    ]);
    const audit = await ok(service, service.adminKey, 'getAudit', {
      query: { action: 'account.' },
      ...inStaging,
    });
    expect(audit[0]).toMatchObject({ action: 'account.create', target: { id: staging.id } });
  });

  it('protects a new production account by default, and lets its admins rename it', async () => {
    const production = await ok(service, service.adminKey, 'createAccount', {
      payload: { name: 'EU production', account_type: 'production' },
    });
    expect(production.protected).toBe(true);
    const inIt = { [ACCOUNT_HEADER]: production.id };
    const renamed = await ok(service, service.adminKey, 'updateAccount', {
      params: { account_id: production.id },
      payload: { name: 'Production (EU)', protected: false },
      headers: inIt,
    });
    expect(renamed).toMatchObject({ name: 'Production (EU)', protected: false });
    expectProblem(
      await send(service, service.adminKey, 'updateAccount', {
        params: { account_id: production.id },
        payload: {},
      }),
      400,
      'invalid_request',
    );
  });

  it("stores each account's protection as it was made: the operator's unprotected", async () => {
    await ok(service, service.adminKey, 'createAccount', {
      payload: { name: 'EU production', account_type: 'production' },
    });
    await createStaging('Staging');
    await createStaging('Staging (protected)', { protected: true });
    // Read back from the store, not from the answers that made them.
    const accounts = await ok(service, service.adminKey, 'listAccounts');
    expect(
      Object.fromEntries(accounts.map((account) => [account.name, account.protected])),
    ).toEqual({
      'Test account': false,
      'EU production': true,
      Staging: false,
      'Staging (protected)': true,
    });
  });

  it('refuses accounts to anyone but an owner, and copies only from the organization', async () => {
    const adminNotOwner = await service.keyFor('admin');
    expectProblem(
      await send(service, adminNotOwner, 'createAccount', {
        payload: { name: 'Mine', account_type: 'development' },
      }),
      403,
      'forbidden',
    );
    const other = await service.otherAccount();
    const refused = expectProblem(
      await send(service, service.adminKey, 'createAccount', {
        payload: { name: 'Copy', account_type: 'staging', copy_from: other.account.account_id },
      }),
      400,
      'invalid_request',
    );
    expect(refused.detail).toBe(`No account ${other.account.account_id} of your organization`);
    expect(refused.errors?.[0]?.path).toBe('/copy_from');
    expectProblem(
      await send(service, service.adminKey, 'createAccount', {
        payload: { name: 'Odd', account_type: 'qa' },
      }),
      400,
      'invalid_request',
    );
  });

  it('lets an owner name another owner, who then reaches every account as an admin', async () => {
    const staging = await createStaging();
    const adminKey = await service.keyFor('admin');
    const adminId = (await ok(service, adminKey, 'getAuthStatus')).user_id as string;
    // Not an owner yet: may neither make accounts nor name owners.
    expectProblem(
      await send(service, adminKey, 'nameOrganizationOwner', { params: { user_id: adminId } }),
      403,
      'forbidden',
    );
    const named = await ok(service, service.adminKey, 'nameOrganizationOwner', {
      params: { user_id: adminId },
    });
    expect(named.accounts.sort()).toEqual([service.account.account_id, staging.id].sort());
    const there = await ok(service, adminKey, 'getAuthStatus', {
      headers: { [ACCOUNT_HEADER]: staging.id },
    });
    expect(there).toMatchObject({ account_id: staging.id, role: 'admin' });
    expectSuccess(
      'createAccount',
      await send(service, adminKey, 'createAccount', {
        payload: { name: 'Development', account_type: 'development' },
      }),
    );
    expectProblem(
      await send(service, service.adminKey, 'nameOrganizationOwner', {
        params: { user_id: 'usr_nobody' },
      }),
      404,
      'not_found',
    );
  });

  it('says who owns the organization, in the members list and the status, at once after naming', async () => {
    const editorKey = await service.keyFor('editor');
    const editor = await ok(service, editorKey, 'getAuthStatus');
    expect(editor).toMatchObject({ role: 'editor', organization_owner: false });
    expect(await ok(service, service.adminKey, 'getAuthStatus')).toMatchObject({
      organization_owner: true,
    });
    const ownersIn = async () =>
      (await ok(service, service.adminKey, 'listMembers'))
        .filter((member) => member.organization_owner)
        .map((member) => member.email);
    expect(await ownersIn()).toEqual([service.account.email]);

    await ok(service, service.adminKey, 'nameOrganizationOwner', {
      params: { user_id: editor.user_id as string },
    });
    // The editor's key answers as an owner and an admin from the next request on.
    expect(await ok(service, editorKey, 'getAuthStatus')).toMatchObject({
      role: 'admin',
      organization_owner: true,
    });
    expect(await ownersIn()).toEqual([service.account.email, editor.email]);
  });

  it('stops at 20 accounts an organization, naming the limit', async () => {
    for (let n = 1; n < 20; n++) await createStaging(`Staging ${n}`);
    const refused = expectProblem(
      await send(service, service.adminKey, 'createAccount', {
        payload: { name: 'One more', account_type: 'development' },
      }),
      409,
      'limit_reached',
    );
    expect(refused).toMatchObject({ limit: { name: 'accounts_per_organization', value: 20 } });
  });
});

describe('X-Account-Id', () => {
  it("lets only an owner's key name another account of the organization", async () => {
    const staging = await createStaging();
    const inStaging = { headers: { [ACCOUNT_HEADER]: staging.id } };
    // The owner makes the new account's first key there; it acts there with no header.
    const made = await ok(service, service.adminKey, 'createApiKey', {
      payload: { name: 'Staging CI', permissions: ['config:read'] },
      ...inStaging,
    });
    const status = await ok(service, made.secret, 'getAuthStatus');
    expect(status.account_id).toBe(staging.id);

    // A session made from the owner's key is still the key's: no header needed, though the
    // owner is a member of both accounts now.
    const keySession = await sessionFromKey(service, service.adminKey);
    const own = expectSuccess(
      'getLiveConfig',
      await sendInSession(service, keySession, 'getLiveConfig'),
    );
    expect(own.id).toBe((await ok(service, service.adminKey, 'getLiveConfig')).id);

    const editorKey = await service.keyFor('editor');
    const notMember = expectProblem(
      await send(service, editorKey, 'getLiveConfig', inStaging),
      403,
      'forbidden',
    );
    expect(notMember.detail).toBe(`You are not a member of the account ${staging.id}`);
    const other = await service.otherAccount();
    expectProblem(
      await send(service, service.adminKey, 'getLiveConfig', {
        headers: { [ACCOUNT_HEADER]: other.account.account_id },
      }),
      403,
      'forbidden',
    );
    expectProblem(
      await send(service, service.adminKey, 'getLiveConfig', {
        headers: { [ACCOUNT_HEADER]: 'x'.repeat(101) },
      }),
      400,
      'invalid_request',
    );
  });

  it("refuses a person an account they are not a member of, and a member's key another account unless an owner's", async () => {
    const staging = await createStaging();
    const inStaging = { headers: { [ACCOUNT_HEADER]: staging.id } };
    const cookie = await invitedPersonInSession(service, 'bo@acme.com', 'admin');
    const notMember = expectProblem(
      await sendInSession(service, cookie, 'getLiveConfig', inStaging),
      403,
      'forbidden',
    );
    expect(notMember.detail).toBe(`You are not a member of the account ${staging.id}`);

    await joinInSession(cookie, 'bo@acme.com', staging.id);
    // A member of both now: the session acts on staging, the person's key only on its own.
    expectSuccess(
      'getLiveConfig',
      await sendInSession(service, cookie, 'getLiveConfig', inStaging),
    );
    const made = expectSuccess(
      'createApiKey',
      await sendInSession(service, cookie, 'createApiKey', {
        payload: { name: 'Bo', permissions: ['config:read'] },
        headers: { [ACCOUNT_HEADER]: service.account.account_id },
      }),
    );
    const notOwner = expectProblem(
      await send(service, made.secret, 'getLiveConfig', inStaging),
      403,
      'forbidden',
    );
    expect(notOwner.detail).toBe(
      "An API key acts on its own account; only an organization owner's key may name another in X-Account-Id",
    );
  });

  it('needs no X-Account-Id on the endpoints about the person, for one in several accounts', async () => {
    const cookie = await invitedPersonInSession(service, 'ana@acme.com');
    const staging = await createStaging();
    await joinInSession(cookie, 'ana@acme.com', staging.id);
    expectProblem(await sendInSession(service, cookie, 'getLiveConfig'), 400, 'account_required');

    // Each acts on the account the session began in, or on the person alone.
    const status = expectSuccess(
      'getAuthStatus',
      await sendInSession(service, cookie, 'getAuthStatus'),
    );
    expect(status).toMatchObject({ account_id: service.account.account_id, role: 'editor' });
    expectSuccess('listAccounts', await sendInSession(service, cookie, 'listAccounts'));
    // Not an owner: refused for that, not for a missing header.
    expectProblem(
      await sendInSession(service, cookie, 'createAccount', {
        payload: { name: 'Development', account_type: 'development' },
      }),
      403,
      'forbidden',
    );
    expectSuccess('extendSession', await sendInSession(service, cookie, 'extendSession'));
    // Joining staging signed the person in again: a session of theirs to end by its id.
    const sessions = expectSuccess(
      'listSessions',
      await sendInSession(service, cookie, 'listSessions'),
    );
    const another = sessions.find((session) => !session.current);
    expect(another).toBeDefined();
    expect(
      (
        await sendInSession(service, cookie, 'endSession', {
          params: { id: (another as { id: string }).id },
        })
      ).statusCode,
    ).toBe(204);
    expectSuccess('endOtherSessions', await sendInSession(service, cookie, 'endOtherSessions'));
    // Accepting a third account's invitation while signed in is about the person too.
    const development = await createStaging('Development', { account_type: 'development' });
    await joinInSession(cookie, 'ana@acme.com', development.id);
    expectSuccess('signOut', await sendInSession(service, cookie, 'signOut'));
  });

  it('asks a person in several accounts to name one, and acts on the one named', async () => {
    const cookie = await invitedPersonInSession(service, 'ana@acme.com');
    // Alone in one account, the session needs no header.
    await ok(service, undefined, 'getLiveConfig', { headers: { cookie } });
    const staging = await createStaging();
    await joinInSession(cookie, 'ana@acme.com', staging.id);

    const ambiguous = expectProblem(
      await sendInSession(service, cookie, 'getLiveConfig'),
      400,
      'account_required',
    );
    expect(ambiguous.detail).toContain('X-Account-Id');
    // About the person, not an account: no header needed.
    const accounts = expectSuccess(
      'listAccounts',
      await sendInSession(service, cookie, 'listAccounts'),
    );
    expect(accounts.map(({ account_type, role }) => ({ account_type, role }))).toEqual([
      { account_type: 'production', role: 'editor' },
      { account_type: 'staging', role: 'viewer' },
    ]);
    const inStaging = { headers: { [ACCOUNT_HEADER]: staging.id } };
    const status = expectSuccess(
      'getAuthStatus',
      await sendInSession(service, cookie, 'getAuthStatus', inStaging),
    );
    expect(status).toMatchObject({ account_id: staging.id, role: 'viewer' });
    expectSuccess(
      'getLiveConfig',
      await sendInSession(service, cookie, 'getLiveConfig', inStaging),
    );
    // A viewer there: the role of that account applies.
    expectProblem(
      await sendInSession(service, cookie, 'editConfig', {
        payload: {
          operations: [{ create_app: [{ id: 'x', name: 'X', platform: 'web' }] }],
          summary: 's',
        },
        ...inStaging,
      }),
      403,
      'forbidden',
    );
  });
});
