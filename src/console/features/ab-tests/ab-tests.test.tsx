import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { configsKeys } from '../../api/config-keys';
import { routes } from '../../app/routes';
import type { AuthStatus } from '../../../contract/auth-status';
import { ConfigServer } from '../../testing/config-server';
import { setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

// The pages are lazy chunks and the worker's stand-in imports the config domain.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

const LIVE_WITH_TEST = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      button_size: small
      theme: light
  - id: ios-app
    name: Shop for iOS
    platform: ios
ab_tests:
  - id: bigger-button
    app: checkout
    description: Try a bigger button
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: "2026-11-20T10:00:00.000Z"
`;

const DRAFT_TEST = `  - id: dark-mode
    app: ios-app
    status: draft
    variants:
      - id: control
        weight: 30
      - id: dark
        weight: 70
        settings:
          theme: dark
`;

const EDITOR_STATUS: AuthStatus = {
  ...ADMIN_STATUS,
  role: 'editor',
  permissions: ['config:read', 'config:write'],
};
const VIEWER_STATUS: AuthStatus = { ...ADMIN_STATUS, role: 'viewer', permissions: ['config:read'] };

function serverWithDraft(status: AuthStatus = ADMIN_STATUS): ConfigServer {
  const server = new ConfigServer({ liveYaml: LIVE_WITH_TEST, status });
  server.add({ id: 'cfg_d', label: 'Dark mode draft', yaml: LIVE_WITH_TEST + DRAFT_TEST });
  return server;
}

function open(path: string, server: ConfigServer) {
  connectForTest();
  http.use(...server.handlers);
  return { server, user: userEvent.setup(), ...renderRoutes(routes, { path }) };
}

describe('the A/B test list', () => {
  it('lists the tests of the live config and of drafts with what a person needs', async () => {
    open('/ab-tests', serverWithDraft());
    const table = await screen.findByRole('table', { name: 'A/B tests' });
    const running = await within(table).findByRole('row', { name: /bigger-button/ });
    expect(within(running).getByText('Running')).toBeTruthy();
    expect(within(running).getByText('Try a bigger button')).toBeTruthy();
    expect(within(running).getByText('checkout')).toBeTruthy();
    expect(
      within(running)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['control 50', 'big 50 (button_size: large)']);
    expect(within(running).getByRole('link', { name: 'Live: Initial config' })).toBeTruthy();
    expect(within(running).getByText('2026-11-20')).toBeTruthy();
    expect(within(running).getByRole('link', { name: 'bigger-button' }).getAttribute('href')).toBe(
      '/ab-tests/live/bigger-button',
    );

    // The draft's copy of the live test is not listed again; only what the draft changes.
    expect(within(table).getAllByRole('row', { name: /bigger-button/ })).toHaveLength(1);
    const draft = within(table).getByRole('row', { name: /dark-mode/ });
    expect(within(draft).getByText('Draft')).toBeTruthy();
    expect(draft.textContent).toContain('dark 70 (theme: dark)');
    expect(within(draft).getByRole('link', { name: 'dark-mode' }).getAttribute('href')).toBe(
      '/ab-tests/cfg_d/dark-mode',
    );
    expect(screen.getByRole('link', { name: 'New A/B test' })).toBeTruthy();
  });

  it('offers a viewer no way to create or run tests', async () => {
    open('/ab-tests', serverWithDraft(VIEWER_STATUS));
    await screen.findByRole('row', { name: /bigger-button/ });
    expect(screen.queryByRole('link', { name: 'New A/B test' })).toBeNull();
  });
});

describe('drafts behind many published versions', () => {
  /** The draft, then 60 published versions newer than it: more than a first page of configs. */
  function serverWithNewerVersions(): ConfigServer {
    const server = serverWithDraft();
    for (let n = 0; n < 60; n++) {
      server.add({ id: `cfg_v${n}`, label: `Version ${n}`, kind: 'published' });
    }
    return server;
  }

  it('are still offered by New A/B test', async () => {
    open('/ab-tests/new', serverWithNewerVersions());
    const target = await screen.findByLabelText(/^Create in/);
    expect(within(target).getByRole('option', { name: 'Draft: Dark mode draft' })).toBeTruthy();
  });

  it('still show their tests on the A/B tests page', async () => {
    open('/ab-tests', serverWithNewerVersions());
    const table = await screen.findByRole('table', { name: 'A/B tests' });
    expect(await within(table).findByRole('row', { name: /dark-mode/ })).toBeTruthy();
    expect(screen.queryByText(/older drafts are left out/)).toBeNull();
  });

  it('past the newest 20, are said to be left out', async () => {
    const server = serverWithNewerVersions();
    for (let n = 0; n < 20; n++) server.add({ id: `cfg_d${n}`, label: `Draft ${n}` });
    open('/ab-tests', server);
    expect(
      await screen.findByText(
        'Showing the tests of the newest 20 drafts; older drafts are left out.',
      ),
    ).toBeTruthy();
  });
});

describe('the cache', () => {
  it('holds each config once, in the entry the configs pages read too', async () => {
    const server = serverWithDraft();
    const { queryClient } = open('/ab-tests', server);
    await screen.findByRole('row', { name: /dark-mode/ });
    const roots = queryClient
      .getQueryCache()
      .getAll()
      .map((query) => query.queryKey[0]);
    // Besides who the caller is and the environments in the banner, only configs.
    expect(new Set(roots)).toEqual(new Set(['auth', 'accounts', 'configs']));
    expect(queryClient.getQueryData(configsKeys.detail('cfg_d'))).toMatchObject({ id: 'cfg_d' });

    // A save on the configs pages refreshes that entry, and with it the list of tests.
    server.saveElsewhere(
      'cfg_d',
      `${LIVE_WITH_TEST}${DRAFT_TEST.replaceAll('dark-mode', 'night-mode')}`,
    );
    await queryClient.invalidateQueries({ queryKey: configsKeys.detail('cfg_d') });
    expect(await screen.findByRole('row', { name: /night-mode/ })).toBeTruthy();
  });
});

describe('a test page', () => {
  it('offers the steps its status allows: a running test can be edited, ended, promoted', async () => {
    open('/ab-tests/live/bigger-button', serverWithDraft());
    const lifecycle = await screen.findByRole('region', { name: 'Lifecycle' });
    expect(
      within(lifecycle)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Edit', 'End', 'Promote']);
    expect(screen.getByRole('table', { name: 'Variants' }).textContent).toContain(
      'button_size: large',
    );
  });

  it('offers a draft test edit, start and delete', async () => {
    open('/ab-tests/cfg_d/dark-mode', serverWithDraft());
    const lifecycle = await screen.findByRole('region', { name: 'Lifecycle' });
    expect(
      within(lifecycle)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Edit', 'Start', 'Delete']);
  });

  it('shows a viewer and an editor the test without any step', async () => {
    for (const status of [VIEWER_STATUS, EDITOR_STATUS]) {
      const { unmount } = open('/ab-tests/cfg_d/dark-mode', serverWithDraft(status));
      const lifecycle = await screen.findByRole('region', { name: 'Lifecycle' });
      expect(within(lifecycle).queryAllByRole('button')).toHaveLength(0);
      expect(lifecycle.textContent).toContain('needs the config:publish permission');
      unmount();
    }
  });

  it('starts a draft test: the draft is published, and the page says which version is live', async () => {
    const { server, user } = open('/ab-tests/cfg_d/dark-mode', serverWithDraft());
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    const dialog = screen.getByRole('dialog', { name: 'Start dark-mode?' });
    expect(dialog.textContent).toContain('publishes the draft “Dark mode draft”');
    await user.type(within(dialog).getByLabelText(/^Version label/), 'Dark mode goes live');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));

    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(
      'Started dark-mode. Published as the version “Dark mode goes live”, which is now live.',
    );
    expect(server.edits.at(-1)).toEqual({
      body: {
        config_id: 'cfg_d',
        operations: [{ start_ab_test: [{ id: 'dark-mode' }] }],
        summary: 'Dark mode goes live',
      },
      ifMatch: '"1"',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(screen.getByText('Running')).toBeTruthy());
  });

  it('says why a start was refused, with the issues of the invalid draft', async () => {
    const server = new ConfigServer({ liveYaml: LIVE_WITH_TEST });
    server.add({
      id: 'cfg_bad',
      label: 'Broken draft',
      yaml: `${LIVE_WITH_TEST}${DRAFT_TEST}`.replace('platform: ios', 'platform: desktop'),
    });
    const { user } = open('/ab-tests/cfg_bad/dark-mode', server);
    await user.click(await screen.findByRole('button', { name: 'Start' }));
    const dialog = screen.getByRole('dialog', { name: 'Start dark-mode?' });
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('dark-mode was not started.');
    expect(alert.textContent).toContain('The result would have 1 error');
    expect(alert.textContent).toMatch(/line 10, column 15 \(\/apps\/1\/platform\)/);
  });

  it('promotes a winner, showing which settings go into the app', async () => {
    const { server, user } = open('/ab-tests/live/bigger-button', serverWithDraft());
    await user.click(await screen.findByRole('button', { name: 'Promote' }));
    const dialog = screen.getByRole('dialog', { name: 'Promote a winner of bigger-button?' });
    await user.click(within(dialog).getByRole('button', { name: 'Promote' }));
    expect(await within(dialog).findByText('Choose the winning variant.')).toBeTruthy();
    expect(server.edits).toHaveLength(0);

    await user.click(within(dialog).getByRole('radio', { name: 'big' }));
    const copied = within(dialog).getByRole('table', {
      name: 'Settings copied into checkout from big',
    });
    expect(within(copied).getByRole('row', { name: 'button_size small large' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Promote' }));
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(server.get(server.liveId).yaml).toContain('button_size: large\n      theme: light');
    expect(server.get(server.liveId).yaml).toContain('winner: big');
  });

  it('edits only the description of a running test', async () => {
    const { server, user } = open('/ab-tests/live/bigger-button', serverWithDraft());
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit bigger-button' });
    expect(within(dialog).queryByRole('group', { name: 'Variants' })).toBeNull();
    const description = within(dialog).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Bigger, bolder');
    await user.click(within(dialog).getByRole('button', { name: 'Save and publish' }));
    await screen.findByRole('status');
    expect(server.edits.at(-1)?.body.operations).toEqual([
      { update_ab_test: [{ id: 'bigger-button', description: 'Bigger, bolder' }] },
    ]);
  });
});

describe('the create form', () => {
  it('shows the weights total as you type, and a total other than 100 blocks it', async () => {
    const { server, user } = open('/ab-tests/new', serverWithDraft());
    const variants = await screen.findByRole('group', { name: 'Variants' });
    expect(within(variants).getByText('Total weight: 100 of 100')).toBeTruthy();
    const weight = within(variants).getByLabelText('Variant 2 weight');
    await user.clear(weight);
    await user.type(weight, '40');
    expect(within(variants).getByText('Total weight: 90 of 100')).toBeTruthy();

    await user.type(screen.getByLabelText(/^Test id/), 'new-test');
    await user.selectOptions(screen.getByLabelText(/^App/), 'checkout');
    await user.click(screen.getByRole('button', { name: 'Create test' }));
    expect(
      await within(variants).findByText('The weights add up to 90; they must add up to 100.'),
    ).toBeTruthy();
    expect(server.edits).toHaveLength(0);
  });

  it('keeps the other weights when a variant is removed', async () => {
    const { user } = open('/ab-tests/new', serverWithDraft());
    const variants = await screen.findByRole('group', { name: 'Variants' });
    await user.click(within(variants).getByRole('button', { name: 'Add variant' }));
    const fill = async (label: string, value: string) => {
      const input = within(variants).getByLabelText(label);
      await user.clear(input);
      await user.type(input, value);
    };
    await fill('Variant 1 weight', '20');
    await fill('Variant 2 weight', '30');
    await fill('Variant 3 id', 'third');
    await fill('Variant 3 weight', '50');
    await user.click(within(variants).getByRole('button', { name: 'Remove variant 2' }));

    expect((within(variants).getByLabelText('Variant 1 id') as HTMLInputElement).value).toBe(
      'control',
    );
    expect((within(variants).getByLabelText('Variant 1 weight') as HTMLInputElement).value).toBe(
      '20',
    );
    expect((within(variants).getByLabelText('Variant 2 id') as HTMLInputElement).value).toBe(
      'third',
    );
    expect((within(variants).getByLabelText('Variant 2 weight') as HTMLInputElement).value).toBe(
      '50',
    );
    expect(within(variants).getByText('Total weight: 70 of 100')).toBeTruthy();
    expect(
      (within(variants).getByRole('button', { name: 'Remove variant 1' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
  });

  it('puts mistakes beside their fields', async () => {
    const { server, user } = open('/ab-tests/new', serverWithDraft());
    await user.type(await screen.findByLabelText(/^Test id/), 'Bigger-Button');
    const variants = screen.getByRole('group', { name: 'Variants' });
    await user.clear(within(variants).getByLabelText('Variant 2 id'));
    await user.type(within(variants).getByLabelText('Variant 2 id'), 'control');
    await user.click(within(variants).getByRole('button', { name: 'Add a setting to variant 1' }));
    await user.type(within(variants).getByLabelText('Variant 1 setting 1'), 'button_size');
    await user.selectOptions(within(variants).getByLabelText('Variant 1 setting 1 type'), 'number');
    await user.type(within(variants).getByLabelText('Variant 1 setting 1 value'), 'big');
    await user.click(screen.getByRole('button', { name: 'Create test' }));

    const errorOf = (label: string | RegExp) =>
      document.getElementById(
        screen.getByLabelText(label).getAttribute('aria-describedby')?.split(' ').at(-1) ?? '',
      )?.textContent;
    await waitFor(() =>
      expect(errorOf(/^Test id/)).toBe('Lowercase letters, digits and -, starting with a letter.'),
    );
    expect(errorOf(/^App/)).toBe('Choose the app the test runs in.');
    expect(errorOf('Variant 2 id')).toBe('Another variant has this id.');
    expect(errorOf('Variant 1 setting 1 value')).toBe('Enter a number.');
    expect(server.edits).toHaveLength(0);
  });

  it('refuses an id the chosen config already has', async () => {
    const { user } = open('/ab-tests/new', serverWithDraft());
    await user.type(await screen.findByLabelText(/^Test id/), 'bigger-button');
    await user.selectOptions(screen.getByLabelText(/^App/), 'checkout');
    await user.click(screen.getByRole('button', { name: 'Create test' }));
    expect(await screen.findByText('That config already has a test with this id.')).toBeTruthy();
  });

  it('creates a test in a new draft and opens it there', async () => {
    const { server, user, history } = open('/ab-tests/new', serverWithDraft());
    await user.type(await screen.findByLabelText(/^Test id/), 'green-cta');
    await user.selectOptions(screen.getByLabelText(/^App/), 'checkout');
    await user.type(screen.getByLabelText(/^Description/), 'A green button');
    const variants = screen.getByRole('group', { name: 'Variants' });
    await user.click(within(variants).getByRole('button', { name: 'Add a setting to variant 2' }));
    await user.type(within(variants).getByLabelText('Variant 2 setting 1'), 'theme');
    await user.type(within(variants).getByLabelText('Variant 2 setting 1 value'), 'green');
    await user.click(screen.getByRole('button', { name: 'Create test' }));

    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Created green-cta in the new draft');
    expect(server.edits.at(-1)).toEqual({
      body: {
        operations: [
          {
            create_ab_test: [
              {
                id: 'green-cta',
                app: 'checkout',
                description: 'A green button',
                variants: [
                  { id: 'control', weight: 50 },
                  { id: 'treatment', weight: 50, settings: { theme: 'green' } },
                ],
              },
            ],
          },
        ],
      },
      ifMatch: null,
    });
    expect(history.location.pathname).toMatch(/^\/ab-tests\/cfg_draft_\d+\/green-cta$/);
    expect(await screen.findByText('A green button')).toBeTruthy();
  });

  it('adds a test to a chosen draft, at the revision it showed', async () => {
    const { server, user, history } = open('/ab-tests/new?config=cfg_d', serverWithDraft());
    const target = (await screen.findByLabelText(/^Create in/)) as HTMLSelectElement;
    expect(target.value).toBe('cfg_d');
    expect(screen.queryByLabelText(/^Draft name/)).toBeNull();
    await user.type(screen.getByLabelText(/^Test id/), 'dark-mode');
    await user.selectOptions(screen.getByLabelText(/^App/), 'ios-app');
    await user.click(screen.getByRole('button', { name: 'Create test' }));
    // The draft already has a test with this id; the live config does not.
    expect(await screen.findByText('That config already has a test with this id.')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Test id/));
    await user.type(screen.getByLabelText(/^Test id/), 'big-font');
    await user.click(screen.getByRole('button', { name: 'Create test' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Created big-font in the draft “Dark mode draft”.',
    );
    expect(server.edits.at(-1)).toMatchObject({
      body: { config_id: 'cfg_d', operations: [{ create_ab_test: [{ id: 'big-font' }] }] },
      ifMatch: '"1"',
    });
    expect(history.location.pathname).toBe('/ab-tests/cfg_d/big-font');
  });
});
