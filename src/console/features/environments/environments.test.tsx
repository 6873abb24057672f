/**
 * Environments in the console: the banner names the one this tab works in, coloured by type,
 * and offers the others; on a protected one, a step that goes live waits for its name.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account, Schedule } from '../../../contract/environments';
import { routes } from '../../app/routes';
import { resetFakeEditor } from '../../editor/testing/fake-config-editor';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { handle, setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

vi.mock(
  '../../editor/monaco/config-editor',
  () => import('../../editor/testing/fake-config-editor'),
);
vi.mock('../../editor/monaco/diff-view', async () => ({
  default: (await import('../../editor/testing/fake-config-editor')).FakeDiffView,
}));
configure({ asyncUtilTimeout: 5_000 });
beforeEach(() => resetFakeEditor());

const http = setupContractServer();
const STATUS = { ...ADMIN_STATUS, account_id: 'acc_prod', organization_name: 'Acme' };
const account = (fields: Partial<Account> & Pick<Account, 'id' | 'name' | 'account_type'>) => ({
  protected: false,
  organization_id: 'org_1',
  role: 'admin' as const,
  created_at: '2026-11-27T09:00:00.000Z',
  ...fields,
});
const ACCOUNTS = [
  account({ id: 'acc_prod', name: 'Production', account_type: 'production', protected: true }),
  account({ id: 'acc_stage', name: 'Staging', account_type: 'staging' }),
];

const DRAFT_YAML = `${LIVE_YAML}ab_tests:
  - id: dark-mode
    app: checkout
    status: draft
    variants:
      - id: control
        weight: 50
      - id: dark
        weight: 50
`;

function open(path: string) {
  const server = new ConfigServer({ status: STATUS });
  server.add({ id: 'cfg_d', label: 'Dark mode draft', yaml: DRAFT_YAML });
  connectForTest();
  http.use(
    ...server.handlers,
    handle('listAccounts', () => ({ status: 200, body: ACCOUNTS })),
  );
  return { server, user: userEvent.setup(), ...renderRoutes(routes, { path }) };
}

describe('the environment in the banner', () => {
  it('names the organization and the environment, and offers the others', async () => {
    open('/configs');
    const banner = screen.getByRole('banner');
    expect(await within(banner).findByText(/Acme · Production/)).toBeTruthy();
    const badge = within(banner).getByText('Production', { selector: '.environment-type' });
    expect(badge.closest('.environment')?.className).toContain('environment-production');
    const choice = within(banner).getByRole('combobox', { name: 'Environment' });
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Production (Production)', 'Staging (Staging)']);
    expect((choice as HTMLSelectElement).value).toBe('acc_prod');
  });
});

describe('a protected environment', () => {
  it('starts a test only once its name is typed', async () => {
    const { server, user, history } = open('/configs/cfg_d');
    const list = await screen.findByRole('list', { name: 'CodeLenses' });
    await user.click(within(list).getByRole('button', { name: 'Start' }));
    const dialog = screen.getByRole('dialog', { name: 'Start dark-mode?' });
    const field = await within(dialog).findByLabelText(/Production is protected/);
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Type Production to confirm.');
    expect(server.edits).toEqual([]);
    await user.type(field, 'Production');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(
      await screen.findByText(/^Started dark-mode\. Published as the version “.+”/),
    ).toBeTruthy();
    expect(server.edits).toHaveLength(1);
    // The page moves on to the published version: wait for it, so that nothing is left asking.
    await waitFor(() => expect(history.location.pathname).toBe(`/configs/${server.liveId}`));
    expect(await screen.findByRole('heading', { level: 1, name: /./ })).toBeTruthy();
    await screen.findByRole('list', { name: 'CodeLenses' });
  });
});

describe('scheduled publishes', () => {
  it('schedules the publish of a draft, lists it with Cancel, and shows a failed one with its reason', async () => {
    const schedules: Schedule[] = [];
    const { user } = open('/configs/cfg_d');
    http.use(
      handle('listSchedules', ({ query }) => ({
        status: 200,
        body: schedules.filter((one) => one.status === query.status),
      })),
      handle('createSchedule', ({ body, request }) => {
        expect(request.headers.get('x-account-id')).toBeNull();
        const made = scheduleOf({ id: 'sch_1', at: body.at, status: 'pending' });
        schedules.push(made);
        return { status: 201, body: made };
      }),
    );
    // Beside Publish; the config's schedules are listed under Releases.
    await user.click(await screen.findByRole('button', { name: 'Schedule publish…' }));
    const dialog = screen.getByRole('dialog', { name: 'Schedule the publish of Dark mode draft' });
    const when = within(dialog).getByLabelText('Publish at');
    await user.clear(when);
    await user.type(when, '2020-01-01T09:00');
    await user.type(within(dialog).getByLabelText(/Production is protected/), 'Production');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule publish' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose a time in the future.');
    expect(schedules).toEqual([]);
    await user.clear(when);
    await user.type(when, '2099-01-05T09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule publish' }));
    const panel = await screen.findByRole('region', { name: 'Releases' });
    const list = await within(panel).findByRole('list', { name: 'Scheduled changes' });
    expect(within(list).getByText(/Publish at .*, scheduled by ada@example.com/)).toBeTruthy();
    expect(schedules[0]?.at).toBe(new Date('2099-01-05T09:00').toISOString());

    // Cancelled, it leaves the list; one that failed meanwhile shows with its reason.
    http.use(
      handle('cancelSchedule', ({ params }) => {
        const index = schedules.findIndex((one) => one.id === params.schedule_id);
        const cancelled = { ...(schedules[index] as Schedule), status: 'cancelled' as const };
        schedules.splice(index, 1, cancelled);
        return { status: 200, body: cancelled };
      }),
    );
    schedules.push(
      scheduleOf({
        id: 'sch_0',
        status: 'failed',
        reason: 'The draft lacks the approvals it needs',
      }),
    );
    await user.click(within(list).getByRole('button', { name: 'Cancel schedule' }));
    expect(
      await within(panel).findByText(/failed: The draft lacks the approvals it needs/),
    ).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Cancel schedule' })).toBeNull();
  });
});

describe('the configs page', () => {
  it("lists the account's waiting and failed scheduled changes, each with its config", async () => {
    http.use(
      handle('listSchedules', ({ query }) => ({
        status: 200,
        body:
          query.status === 'pending'
            ? [scheduleOf({ id: 'sch_1', status: 'pending' })]
            : [scheduleOf({ id: 'sch_0', status: 'failed', reason: 'ada@example.com left' })],
      })),
    );
    open('/configs');
    const region = await screen.findByRole('region', { name: 'Scheduled changes' });
    const items = within(region).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Publish of cfg_d at .*, scheduled by ada@example.com$/),
      expect.stringMatching(/^Publish of cfg_d at .* failed: ada@example.com left$/),
    ]);
    expect(within(items[0] as HTMLElement).getByRole('link', { name: 'cfg_d' })).toBeTruthy();
  });
});

describe('compare and promote', () => {
  it('shows what differs item by item and promotes the chosen items as a draft there', async () => {
    const sent: { body: unknown; account: string | null }[] = [];
    const { user } = open('/configs/cfg_d/compare');
    http.use(
      handle('previewPromotion', ({ body, request }) => {
        sent.push({ body, account: request.headers.get('x-account-id') });
        return {
          status: 200,
          body: {
            from_account: 'acc_prod',
            to_account: 'acc_stage',
            from_config_id: 'cfg_d',
            from_revision: 1,
            to_config_id: 'cfg_live',
            differences: [
              {
                item: { app: 'checkout' },
                path: '/settings/theme',
                source: 'dark',
                target: 'light',
              },
              { item: { app: 'search' }, path: '', source: { id: 'search' }, target: null },
              {
                item: { ab_test: 'dark-mode' },
                path: '',
                source: { id: 'dark-mode' },
                target: null,
              },
            ],
            operations: [],
            not_promotable: [
              { item: { ab_test: 'dark-mode' }, reason: 'The A/B test is running in Staging' },
            ],
          },
        };
      }),
      handle('createPromotion', ({ body, request }) => {
        sent.push({ body, account: request.headers.get('x-account-id') });
        return {
          status: 200,
          body: {
            id: 'cfg_new',
            account_id: 'acc_stage',
            kind: 'draft' as const,
            created: true,
            base_config_id: 'cfg_live',
            applied_paths: [],
            applied_ranges: [],
            config: {
              id: 'cfg_new',
              kind: 'draft' as const,
              label: 'Darker checkout',
              revision: 1,
              live: false,
              base_config_id: 'cfg_live',
              created_at: '2026-11-27T09:00:00.000Z',
              updated_at: '2026-11-27T09:00:00.000Z',
              valid: true,
              error_count: 0,
              warning_count: 0,
            },
            validation: { valid: true, error_count: 0, warning_count: 0, issues: [] },
            revision: 1,
            merged_revisions: [],
          },
        };
      }),
    );
    const table = await screen.findByRole('table', { name: /What differs, Production/ });
    expect(within(table).getByText('"dark"')).toBeTruthy();
    expect(within(table).getByText('The A/B test is running in Staging')).toBeTruthy();
    await user.click(within(table).getByRole('checkbox', { name: 'Promote App search' }));
    await user.click(screen.getByRole('button', { name: 'Create draft in Staging' }));
    expect(screen.getByRole('alert').textContent).toBe('Name the draft.');
    await user.type(screen.getByLabelText('Draft name'), 'Darker checkout');
    await user.click(screen.getByRole('button', { name: 'Create draft in Staging' }));
    const link = await screen.findByRole('link', { name: 'Open the draft in Staging' });
    expect(link.getAttribute('href')).toBe('/a/acc_stage/configs/cfg_new');
    expect(sent.at(-1)).toEqual({
      account: 'acc_stage',
      body: {
        from_account: 'acc_prod',
        to_account: 'acc_stage',
        from_config: 'cfg_d',
        summary: 'Darker checkout',
        items: [{ app: 'checkout' }],
      },
    });
  });
});

function scheduleOf(fields: Partial<Schedule> & Pick<Schedule, 'id' | 'status'>): Schedule {
  return {
    account_id: 'acc_prod',
    config_id: 'cfg_d',
    action: 'publish',
    summary: null,
    at: '2099-01-05T09:00:00.000Z',
    reason: null,
    result_config_id: null,
    scheduled_by: { user_id: 'usr_1', email: 'ada@example.com', api_key_id: null },
    created_at: '2026-11-27T09:00:00.000Z',
    finished_at: null,
    ...fields,
  };
}
