import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { recordRequests, setupContractServer } from '../../testing/msw-contract';
import { connectForTest, renderRoutes } from '../../testing/test-utils';

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

function open(server: ConfigServer) {
  connectForTest();
  http.use(...server.handlers);
  const seen = recordRequests(http);
  return { ...renderRoutes(routes, { path: '/configs' }), seen };
}

describe('the config list', () => {
  it('lists the live config, drafts and versions with their state', async () => {
    open(serverWithVersions());
    const table = await screen.findByRole('table', { name: 'Configs' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Label', 'Kind', 'Revision', 'Validity', 'Live', 'Updated']);
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
});
