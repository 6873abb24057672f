import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import { routes } from '../../app/routes';
import { authStatusQueryOptions } from '../../lib/auth';
import { resetFakeEditor } from '../../editor/testing/fake-config-editor';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

// Monaco does not run in jsdom: the page gets the same handle from a textarea, and the
// CodeLenses as buttons after it.
vi.mock(
  '../../editor/monaco/config-editor',
  () => import('../../editor/testing/fake-config-editor'),
);

configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => resetFakeEditor());

const http = setupContractServer();

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

function open(status: AuthStatus = ADMIN_STATUS) {
  const server = new ConfigServer({ status });
  server.add({ id: 'cfg_d', label: 'Dark mode draft', yaml: DRAFT_YAML });
  connectForTest();
  http.use(...server.handlers);
  const view = renderRoutes(routes, { path: '/configs/cfg_d' });
  return { server, user: userEvent.setup(), ...view };
}

async function lenses(): Promise<HTMLElement> {
  return screen.findByRole('list', { name: 'CodeLenses' });
}

describe('the editor page: A/B test steps above the tests', () => {
  it('offers the steps of a draft test on its line, and starts it in the same dialog as the A/B pages', async () => {
    const { server, user, history } = open();
    const list = await lenses();
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Edit', 'Start', 'Delete']);
    const line = DRAFT_YAML.split('\n').indexOf('  - id: dark-mode') + 1;
    for (const item of within(list).getAllByRole('listitem')) {
      expect(item.dataset.line).toBe(String(line));
    }

    await user.click(within(list).getByRole('button', { name: 'Start' }));
    const dialog = screen.getByRole('dialog', { name: 'Start dark-mode?' });
    expect(dialog.textContent).toContain('publishes the draft “Dark mode draft”');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));

    expect(
      await screen.findByText(
        /^Started dark-mode\. Published as the version “.+”, which is now live\.$/,
      ),
    ).toBeTruthy();
    expect(server.edits.at(-1)).toEqual({
      body: { config_id: 'cfg_d', operations: [{ start_ab_test: [{ id: 'dark-mode' }] }] },
      ifMatch: '"1"',
    });
    // The page moves to the published version, whose text has the test running.
    await waitFor(() => expect(history.location.pathname).toBe(`/configs/${server.liveId}`));
    const editor = (await screen.findByRole('textbox', {
      name: 'Config YAML',
    })) as HTMLTextAreaElement;
    await waitFor(() => expect(editor.value).toContain('status: running'));
    expect(
      within(await lenses())
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Edit', 'End', 'Promote']);
  });

  it('offers no step while the text has unsaved edits', async () => {
    open();
    await lenses();
    const editor = screen.getByRole('textbox', { name: 'Config YAML' }) as HTMLTextAreaElement;
    fireEvent.input(editor, { target: { value: `${editor.value}# a note\n` } });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'CodeLenses' })).toBeNull());
    fireEvent.input(editor, { target: { value: DRAFT_YAML } });
    expect(await lenses()).toBeTruthy();
  });

  it('offers no step to a key without config:publish', async () => {
    const { queryClient } = open({
      ...ADMIN_STATUS,
      role: 'editor',
      permissions: ['config:read', 'config:write'],
    });
    await screen.findByRole('textbox', { name: 'Config YAML' });
    // Once the key's permissions are known, no step can show up.
    await waitFor(() =>
      expect(queryClient.getQueryData(authStatusQueryOptions().queryKey)).toBeTruthy(),
    );
    expect(screen.queryByRole('list', { name: 'CodeLenses' })).toBeNull();
  });
});
