import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import type { AuthStatus } from '../../../contract/auth-status';
import type { ReviewState } from '../../../contract/reviews';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { recordRequests, setupContractServer } from '../../testing/msw-contract';
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

  it('"Waiting for my review" keeps the drafts in review that others asked for', async () => {
    const { history } = open(serverWithReviews());
    const table = await screen.findByRole('table', { name: 'Configs' });
    expect(labelsIn(table)).toContain('Ada asks');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Waiting for my review' }));
    await waitFor(() => expect(labelsIn(table)).toEqual(['Ana asks']));
    expect(history.location.search).toBe('?review=waiting');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Waiting for my review' }));
    await waitFor(() => expect(labelsIn(table)).toContain('Ada asks'));
    expect(history.location.search).toBe('');
  });

  it('keeps the filter from the URL, and says so when nothing waits', async () => {
    const editor: AuthStatus = {
      ...ADMIN_STATUS,
      permissions: ['config:read', 'config:write'],
    };
    open(serverWithReviews(editor), '/configs?review=waiting');
    const table = await screen.findByRole('table', { name: 'Configs' });
    expect(
      (screen.getByRole('checkbox', { name: 'Waiting for my review' }) as HTMLInputElement).checked,
    ).toBe(true);
    // Without config:publish no verdict is the key's to give.
    expect(within(table).getByText('No drafts wait for your review.')).toBeTruthy();
  });
});
