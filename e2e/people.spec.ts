/**
 * People signing in as themselves (docs/console.md, "Signing in", "Members", "Signing in
 * again where you are"): an invitation accepted with a password, the password then used to
 * reach the editor, a session ended from another browser while a person has unsaved text
 * (they sign in again in the dialog and the text is still there), an owner naming another
 * member an owner, and the members page as a viewer and as an admin. Each journey makes an
 * account of its own with the command line.
 */
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE } from '../src/service/store/database';
import {
  connectAs,
  createKeyWithCli,
  expect,
  expectNoAxeViolations,
  expectSentToSignIn,
  test,
  whoAmI,
} from './fixtures';
import {
  currentEditorState,
  DRAFT_URL,
  editorValue,
  saveDraft,
  typeIntoEditor,
  uniqueSuffix,
  withApp,
} from './editor';
import { provisioning } from './seed';

test.describe.configure({ timeout: 90_000 });

const PASSWORD = 'a long walk by the quiet harbour';

interface Organization {
  readonly accountId: string;
  readonly accountName: string;
  readonly ownerKey: string;
  readonly suffix: string;
}

/** An account with its owner (an admin) and the owner's key, made by the operator. */
function newAccount(name: string): Organization {
  const suffix = uniqueSuffix();
  const accountName = `${name} ${suffix}`;
  const account = provisioning([
    ...['accounts', 'create', '--name', accountName],
    ...['--owner-email', `owner-${suffix}@people.test`],
  ]) as { account_id: string; user_id: string };
  const key = createKeyWithCli(account.user_id, `Owner key ${suffix}`);
  return { accountId: account.account_id, accountName, ownerKey: key.secret, suffix };
}

/** The account's open sessions were last seen `minutes` ago: their person went idle. */
function idleFor(accountId: string, minutes: number): void {
  const database = new Database(join(String(process.env.E2E_DATA_DIR), DATABASE_FILE));
  try {
    const lastSeen = new Date(Date.now() - minutes * 60_000).toISOString();
    database
      .prepare('UPDATE sessions SET last_seen_at = ? WHERE account_id = ? AND ended_at IS NULL')
      .run(lastSeen, accountId);
  } finally {
    database.close();
  }
}

/** The owner invites `email`; returns the link (on the service's public origin). */
async function invite(baseURL: string, owner: Organization, email: string): Promise<URL> {
  const answer = await fetch(`${baseURL}/api/v1/invitations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.ownerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role: 'editor' }),
  });
  expect(answer.status, await answer.clone().text()).toBe(201);
  const { link } = (await answer.json()) as { link: string };
  return new URL(link);
}

/** Accepts an invitation with a password, as its page would, without a browser. */
async function accept(baseURL: string, link: URL): Promise<void> {
  const answer = await fetch(`${baseURL}/api/v1${link.pathname}/accept`, {
    method: 'POST',
    // Not a browser, but the service asks every sign-in to come from the console's origin.
    headers: {
      'content-type': 'application/json',
      'x-requested-with': 'console',
      origin: link.origin,
    },
    body: JSON.stringify({ password: PASSWORD }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
}

async function signInWithPassword(page: Page, email: string, returnTo = '/'): Promise<void> {
  if (new URL(page.url()).pathname !== '/sign-in') {
    await page.goto(`/sign-in?return_to=${encodeURIComponent(returnTo)}`);
  }
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(whoAmI(page)).toContainText(email);
}

test('an invited person sets a password, signs out, and signs in with it to the editor', async ({
  page,
  baseURL,
}) => {
  const owner = newAccount('Invitees');
  const email = `pat-${owner.suffix}@people.test`;
  const link = (await invite(String(baseURL), owner, email)).pathname;

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Invitation' })).toBeVisible();
  await expect(page.getByText(`You are invited to join ${owner.accountName}`)).toBeVisible();
  await expect(page.getByRole('main')).toContainText(email);
  await expectNoAxeViolations(page);

  // The two fields must agree before anything is sent.
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Confirm the password').fill(`${PASSWORD}!`);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByText('The two passwords are not the same.')).toBeVisible();
  await page.getByLabel('Confirm the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(whoAmI(page)).toContainText(`Signed in as ${email} with a password`);
  await expect(whoAmI(page)).toContainText('editor');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expectSentToSignIn(page, 'You are signed out.');
  await expectNoAxeViolations(page);

  // The link is used up.
  await page.goto(link);
  await expect(page.getByText('This invitation was already used.')).toBeVisible();

  await signInWithPassword(page, email, '/configs');
  await expect(page).toHaveURL((url) => url.pathname === '/configs');
  await page.getByRole('link', { name: 'Open the live config' }).click();
  await currentEditorState(page);
  await expect(whoAmI(page)).toContainText(email);
});

test('a wrong password is said in words, and signs nobody in', async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(401, '/api/v1/auth/password');
  const owner = newAccount('Wrong password');
  const email = `rob-${owner.suffix}@people.test`;
  await accept(String(baseURL), await invite(String(baseURL), owner, email));

  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password', { exact: true }).fill(`${PASSWORD} but wrong`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'The email or password is not right.' }),
  ).toBeVisible();
  await expect(whoAmI(page)).toHaveCount(0);
});

for (const how of ['password', 'API key'] as const) {
  test(`a session ended from another browser while editing: sign in again in place with the ${how}, the unsaved text is still there`, async ({
    page,
    baseURL,
    newContext,
    consoleErrors,
  }) => {
    consoleErrors.allowFailedRequest(401, '/api/v1/');
    const owner = newAccount('Interrupted');
    const email = `eve-${owner.suffix}@people.test`;
    let key = '';
    if (how === 'password') {
      await accept(String(baseURL), await invite(String(baseURL), owner, email));
      await signInWithPassword(page, email, '/configs/live');
    } else {
      const member = provisioning([
        ...['users', 'create', '--account', owner.accountId],
        ...['--email', email, '--role', 'editor'],
      ]) as { user_id: string };
      key = createKeyWithCli(member.user_id, `Eve laptop ${owner.suffix}`).secret;
      await connectAs(page, { secret: key, status: { email } });
      await page.goto('/configs/live');
    }
    const live = await editorValue(page);
    const typed = withApp(live, {
      id: `unsaved-${owner.suffix}`,
      name: 'Typed before the session ended',
      platform: 'web',
    });
    await typeIntoEditor(page, typed);

    // The owner, in another browser, ends every session of this member.
    const admin = await (await newContext()).newPage();
    await connectAs(admin, {
      secret: owner.ownerKey,
      status: { email: `owner-${owner.suffix}@people.test` },
    });
    await admin
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Members' })
      .click();
    await admin.getByRole('button', { name: `End the sessions of ${email}` }).click();
    // (Accepting the invitation by hand started a session too: one or two end here.)
    await expect(
      admin.getByText(new RegExp(`sessions? of ${email} (was|were) ended`)),
    ).toBeVisible();

    // Saving meets the ended session: the dialog asks to sign in again, over the page.
    await saveDraft(page, 'Saved after signing in again');
    const dialog = page.getByRole('dialog', { name: 'Your session ended — sign in again' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Your session was ended.');
    expect(await editorValue(page)).toBe(typed);

    if (how === 'password') {
      await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    } else {
      await dialog.getByLabel('API key', { exact: true }).fill(key);
      await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    }
    await expect(dialog).toBeHidden();
    // The held save went on by itself: a draft with what was typed.
    await expect(page).toHaveURL(DRAFT_URL);
    expect((await editorValue(page)).trimEnd()).toBe(typed.trimEnd());
    await expect(whoAmI(page)).toContainText(email);
  });
}

test('an idle session expires: the next action asks to sign in again in place, the text kept', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allowFailedRequest(401, '/api/v1/');
  const owner = newAccount('Idle');
  const email = `owner-${owner.suffix}@people.test`;
  await connectAs(page, { secret: owner.ownerKey, status: { email } });
  await page.goto('/configs/live');
  const typed = withApp(await editorValue(page), {
    id: `idle-${owner.suffix}`,
    name: 'Typed before a long pause',
    platform: 'web',
  });
  await typeIntoEditor(page, typed);

  // The person leaves for longer than the idle timeout (30 minutes): the session was last
  // seen 31 minutes ago, as the service's own clock will judge it.
  idleFor(owner.accountId, 31);

  await saveDraft(page, 'Saved after a long pause');
  const dialog = page.getByRole('dialog', { name: 'Your session ended — sign in again' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Your session has expired.');
  expect(await editorValue(page)).toBe(typed);
  await dialog.getByLabel('API key', { exact: true }).fill(owner.ownerKey);
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(DRAFT_URL);
  expect((await editorValue(page)).trimEnd()).toBe(typed.trimEnd());
});

test('an owner names a member an owner, who then may name owners too', async ({
  page,
  baseURL,
  newContext,
}) => {
  const owner = newAccount('Owners');
  const pat = `pat-${owner.suffix}@people.test`;
  const quinn = `quinn-${owner.suffix}@people.test`;
  await accept(String(baseURL), await invite(String(baseURL), owner, pat));
  await accept(String(baseURL), await invite(String(baseURL), owner, quinn));
  const membersLink = (on: Page) =>
    on.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' });

  // Pat, an editor, is offered no way to name owners.
  const patPage = await (await newContext()).newPage();
  await signInWithPassword(patPage, pat, '/settings/members');
  const patTable = patPage.getByRole('table', { name: 'Members' });
  await expect(patTable).toContainText(quinn);
  await expect(patTable.getByRole('button', { name: /an owner…$/ })).toHaveCount(0);

  await connectAs(page, {
    secret: owner.ownerKey,
    status: { email: `owner-${owner.suffix}@people.test` },
  });
  await membersLink(page).click();
  const table = page.getByRole('table', { name: 'Members' });
  const rowOf = (email: string) => table.getByRole('row').filter({ hasText: email });
  await expect(rowOf(`owner-${owner.suffix}@people.test`)).toContainText('Owner');
  await expect(rowOf(pat)).not.toContainText('Owner');
  await rowOf(pat)
    .getByRole('button', { name: `Make ${pat} an owner…` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Make ${pat} an owner?` });
  await expect(dialog).toContainText(
    `${pat} will be able to create accounts and act on every account of`,
  );
  await expect(dialog).toContainText('This cannot be undone from the console');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Make owner' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(pat)).toContainText('Owner');
  await expect(page.getByRole('combobox', { name: `Role of ${pat}` })).toHaveValue('admin');
  await expect(rowOf(pat).getByRole('button', { name: /an owner…$/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Pat, now an owner (and an admin), may name Quinn: what only owners are offered.
  await patPage.reload();
  await expect(patTable.getByRole('row').filter({ hasText: pat })).toContainText('Owner');
  await expect(patTable.getByRole('button', { name: `Make ${quinn} an owner…` })).toBeVisible();
  await expect(patTable.getByRole('button', { name: `Remove ${quinn}` })).toBeVisible();
  await expectNoAxeViolations(patPage);
});

test('a viewer reads the members; an admin manages them and the sign-in settings', async ({
  page,
  seed,
  newContext,
}) => {
  await connectAs(page, seed.keys.viewer);
  const settingsNav = page.getByRole('navigation', { name: 'Settings' });
  await settingsNav.getByRole('link', { name: 'Members' }).click();
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table).toContainText(String(seed.keys.admin.status?.email));
  await expect(table.getByRole('button')).toHaveCount(0);
  await expect(table.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Invitations' })).toHaveCount(0);
  await expect(settingsNav.getByRole('link', { name: 'Sign-in' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  const admin = await (await newContext()).newPage();
  await connectAs(admin, seed.keys.admin);
  await admin
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('link', { name: 'Members' })
    .click();
  await expect(
    admin.getByRole('combobox', { name: `Role of ${String(seed.keys.viewer.status?.email)}` }),
  ).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Invite' })).toBeVisible();
  await expectNoAxeViolations(admin);
  await admin
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('link', { name: 'Sign-in' })
    .click();
  await expect(admin.getByRole('form', { name: 'Sign-in settings' })).toBeVisible();
  await expectNoAxeViolations(admin);
  await admin
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('link', { name: 'Your sessions' })
    .click();
  await expect(admin.getByRole('table', { name: 'Your sessions' })).toContainText('This session');
  await expectNoAxeViolations(admin);
});
