import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import type { AuthStatus } from '../../../contract/auth-status';
import type { ReviewState } from '../../../contract/reviews';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { problemOf } from '../../../contract/problem';
import { handle, recordRequests, setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

vi.mock('../../editor/monaco/diff-view', async () => ({
  default: (await import('../../editor/testing/fake-config-editor')).FakeDiffView,
}));

// The dialogs' diff is a lazy chunk: its first render takes a while on a busy machine.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

function serverWithVersions(): ConfigServer {
  const server = new ConfigServer();
  const live = server.get('cfg_live');
  server.add({
    id: 'cfg_old',
    kind: 'published',
    label: 'Older version',
    yaml: LIVE_YAML.replace('name: Checkout', 'name: Old checkout'),
  });
  server.add({
    id: 'cfg_d',
    label: 'Broken draft',
    revision: 3,
    validation: {
      ...live.validation,
      valid: false,
      error_count: 2,
      warning_count: 1,
      issues: [],
    },
  });
  return server;
}

function open(server: ConfigServer, path = '/configs') {
  connectForTest();
  http.use(...server.handlers);
  const seen = recordRequests(http);
  return { ...renderRoutes(routes, { path }), seen };
}

const REQUESTED_AT = '2026-11-22T10:30:00.000Z';

function inReview(requestedBy: string, approvals = 0, approvalsRequired = 2): ReviewState {
  return {
    state: 'in_review',
    approvals,
    approvals_required: approvalsRequired,
    requested_by: requestedBy,
    requested_at: REQUESTED_AT,
  };
}

/** Drafts in each review state: ada (the test key) asked for one review, ana for the others. */
function serverWithReviews(status: AuthStatus = ADMIN_STATUS): ConfigServer {
  const server = new ConfigServer({ status });
  server.add({ id: 'cfg_plain', label: 'Not asked' });
  server.add({ id: 'cfg_ana', label: 'Ana asks', review: inReview('ana@example.com', 1) });
  server.add({ id: 'cfg_ada', label: 'Ada asks', review: inReview('ada@example.com') });
  server.add({
    id: 'cfg_changes',
    label: 'Needs changes',
    review: { ...inReview('ana@example.com'), state: 'changes_requested' },
  });
  server.add({
    id: 'cfg_approved',
    label: 'Approved one',
    review: { ...inReview('ana@example.com', 2), state: 'approved' },
  });
  return server;
}

function labelsIn(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('link')
    .map((link) => link.textContent ?? '');
}

describe('the config list', () => {
  it('lists the live config, drafts and versions with their state', async () => {
    open(serverWithVersions());
    const table = await screen.findByRole('table', { name: 'Configs' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Label', 'Kind', 'Revision', 'Validity', 'Review', 'Live', 'Updated']);
    const live = within(table).getByRole('row', { name: /Initial config/ });
    expect(within(live).getByText('Live')).toBeTruthy();
    expect(within(live).getByRole('link', { name: 'Initial config' }).getAttribute('href')).toBe(
      '/configs/cfg_live',
    );
    const draft = within(table).getByRole('row', { name: /Broken draft/ });
    expect(within(draft).getByText('2 errors, 1 warning')).toBeTruthy();
    expect(within(draft).getByText('Draft')).toBeTruthy();
    expect(within(draft).getByText('3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the live config' }).getAttribute('href')).toBe(
      '/configs/live',
    );
  });

  it('discards a draft after asking', async () => {
    const server = serverWithVersions();
    const { seen } = open(server);
    await userEvent.click(await screen.findByRole('button', { name: 'Discard Broken draft' }));
    const dialog = screen.getByRole('dialog', { name: 'Discard Broken draft?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Discarded Broken draft.')).toBeTruthy();
    expect(
      seen.some((request) => request.method === 'DELETE' && request.url.endsWith('/configs/cfg_d')),
    ).toBe(true);
    await waitFor(() => expect(screen.queryByRole('row', { name: /Broken draft/ })).toBeNull());
  });

  it('makes an earlier version live, showing what changes first', async () => {
    const server = serverWithVersions();
    open(server);
    await userEvent.click(await screen.findByRole('button', { name: 'Make Older version live' }));
    const dialog = screen.getByRole('dialog', { name: 'Make Older version live?' });
    const diff = await within(dialog).findByRole('group', {
      name: /^Changes against the live config/,
    });
    expect(diff.textContent).toContain('name: Old checkout');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make live' }));
    expect(await screen.findByText('Older version is now live.')).toBeTruthy();
    expect(server.liveId).toBe('cfg_old');
    const row = await screen.findByRole('row', { name: /Older version/ });
    await waitFor(() => expect(within(row).getByText('Live')).toBeTruthy());
  });

  it('says so when the server does not offer the list', async () => {
    open(new ConfigServer({ offersConfigs: false }));
    expect(
      await screen.findByText('This server does not offer a list of configs (GET /configs).'),
    ).toBeTruthy();
  });

  it("shows each draft's review state, and nothing where no review was asked for", async () => {
    open(serverWithReviews());
    const table = await screen.findByRole('table', { name: 'Configs' });
    const reviewOf = (label: string) =>
      within(within(table).getByRole('row', { name: new RegExp(label) }))
        .getAllByRole('cell')
        .at(4)?.textContent;
    expect(reviewOf('Ana asks')).toBe('In review · 1 of 2');
    expect(reviewOf('Needs changes')).toBe('Changes requested');
    expect(reviewOf('Approved one')).toBe('Approved');
    expect(reviewOf('Not asked')).toBe('');
    expect(reviewOf('Initial config')).toBe('');
  });

  it('"Waiting for me" asks the server for the drafts in review that others asked for', async () => {
    const { history, seen } = open(serverWithReviews());
    const table = await screen.findByRole('table', { name: 'Configs' });
    expect(labelsIn(table)).toContain('Ada asks');
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Review' }),
      'Waiting for me',
    );
    await waitFor(() => expect(labelsIn(table)).toEqual(['Ana asks']));
    expect(history.location.search).toBe('?review=waiting_for_me');
    expect(seen.some((request) => request.url.endsWith('/configs?review=waiting_for_me'))).toBe(
      true,
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Review' }), 'Any');
    await waitFor(() => expect(labelsIn(table)).toContain('Ada asks'));
    expect(history.location.search).toBe('');
  });

  it('keeps the filter from the URL (an older link too), and says so when nothing waits', async () => {
    const editor: AuthStatus = {
      ...ADMIN_STATUS,
      permissions: ['config:read', 'config:write'],
    };
    open(serverWithReviews(editor), '/configs?review=waiting');
    const table = await screen.findByRole('table', { name: 'Configs' });
    expect(
      (screen.getByRole('combobox', { name: 'Review' }) as HTMLSelectElement).selectedOptions[0]
        ?.textContent,
    ).toBe('Waiting for me');
    // Without config:publish no verdict is the key's to give.
    expect(await within(table).findByText('No drafts wait for your review.')).toBeTruthy();
  });

  it('filters by kind on the server', async () => {
    const { seen } = open(serverWithVersions());
    const table = await screen.findByRole('table', { name: 'Configs' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Drafts');
    await waitFor(() => expect(labelsIn(table)).toEqual(['Broken draft']));
    expect(seen.at(-1)?.url).toMatch(/\/configs\?kind=draft$/);
  });

  it('searches labels on the server once typing rests, and keeps the search in the URL', async () => {
    const server = new ConfigServer();
    for (let n = 1; n <= 12; n++) server.add({ id: `cfg_${n}`, label: `Draft number ${n}` });
    const { history, seen } = open(server);
    const table = await screen.findByRole('table', { name: 'Configs' });
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search configs' }), 'NUMBER 1');
    await waitFor(() =>
      expect(labelsIn(table)).toEqual([
        'Draft number 12',
        'Draft number 11',
        'Draft number 10',
        'Draft number 1',
      ]),
    );
    expect(history.location.search).toBe('?q=NUMBER+1');
    // Typing is not a request a key: one search for the words once they rest.
    const searches = seen.filter((request) => new URL(request.url).searchParams.has('q'));
    expect(searches.map((request) => new URL(request.url).searchParams.get('q'))).toEqual([
      'NUMBER 1',
    ]);
    await user.clear(screen.getByRole('searchbox', { name: 'Search configs' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search configs' }), 'nothing like it');
    expect(await within(table).findByText('No configs match.')).toBeTruthy();
  });
});

describe('the config list, page by page', () => {
  it('shows the first page, then the next ones with Load more, until there are none', async () => {
    const server = new ConfigServer();
    // The live config and 120 drafts: three pages of 50.
    for (let n = 1; n <= 120; n++) server.add({ id: `cfg_${n}`, label: `Draft ${n}` });
    const { seen } = open(server);
    const table = await screen.findByRole('table', { name: 'Configs' });
    expect(labelsIn(table)).toHaveLength(50);
    expect(labelsIn(table)[0]).toBe('Draft 120');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load more configs' }));
    await waitFor(() => expect(labelsIn(table)).toHaveLength(100));
    await user.click(screen.getByRole('button', { name: 'Load more configs' }));
    await waitFor(() => expect(labelsIn(table)).toHaveLength(121));
    expect(labelsIn(table).at(-1)).toBe('Initial config');
    expect(new Set(labelsIn(table)).size).toBe(121);
    expect(screen.queryByRole('button', { name: 'Load more configs' })).toBeNull();
    const lists = seen.filter((request) => new URL(request.url).pathname.endsWith('/configs'));
    expect(lists.map((request) => new URL(request.url).searchParams.has('cursor'))).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('says so when a next page fails, and Load more tries again', async () => {
    const server = new ConfigServer();
    for (let n = 1; n <= 60; n++) server.add({ id: `cfg_${n}`, label: `Draft ${n}` });
    open(server);
    const table = await screen.findByRole('table', { name: 'Configs' });
    let fail = true;
    http.use(
      handle('listConfigs', (request) =>
        request.query.cursor !== undefined && fail
          ? { problem: problemOf('rate_limited', 'Slow down') }
          : server.listConfigsReply(request),
      ),
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Load more configs' }));
    expect(await screen.findByText(/More configs could not be loaded/)).toBeTruthy();
    // The first page stays.
    expect(labelsIn(table)).toHaveLength(50);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Load more configs' }));
    await waitFor(() => expect(labelsIn(table)).toHaveLength(61));
    expect(screen.queryByText(/More configs could not be loaded/)).toBeNull();
  });
});
