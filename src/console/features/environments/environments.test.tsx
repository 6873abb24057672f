/**
 * Environments in the console: the banner names the one this tab works in, coloured by type,
 * and offers the others; on a protected one, a step that goes live waits for its name.
 */
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../contract/environments';
import { routes } from '../../app/routes';
import { resetFakeEditor } from '../../editor/testing/fake-config-editor';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { handle, setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

vi.mock(
  '../../editor/monaco/config-editor',
  () => import('../../editor/testing/fake-config-editor'),
);
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
    const { server, user } = open('/configs/cfg_d');
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
  });
});
