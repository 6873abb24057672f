import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import { problemOf } from '../../../contract/problem';
import { DEFAULT_ACCOUNT_POLICY, type AccountPolicy } from '../../../contract/reviews';
import { routes } from '../../app/routes';
import {
  handle,
  notOffered,
  recordRequests,
  setupContractServer,
} from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';

const server = setupContractServer();

const managerStatus: AuthStatus = {
  ...ADMIN_STATUS,
  permissions: [
    'config:read',
    'config:write',
    'config:publish',
    'api_keys:manage',
    'policy:manage',
  ],
};

/** The account's policy in memory, read and replaced through the contract's handlers. */
function policyServer(status: AuthStatus, initial: AccountPolicy = DEFAULT_ACCOUNT_POLICY) {
  const state = { policy: initial, puts: [] as AccountPolicy[] };
  server.use(
    handle('getAuthStatus', () => ({ status: 200, body: status })),
    handle('listApiKeys', () => ({ status: 200, body: [] })),
    handle('getAccountPolicy', () => ({ status: 200, body: state.policy })),
    handle('setAccountPolicy', ({ body }) => {
      state.puts.push(body);
      state.policy = body;
      return { status: 200, body };
    }),
  );
  return state;
}

async function openSettings() {
  connectForTest();
  const rendered = renderRoutes(routes, { path: '/settings' });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  return rendered;
}

async function policyForm() {
  return screen.findByRole('form', { name: 'Review policy' });
}

describe('the review policy on the settings page', () => {
  it('loads the policy into the form and saves a new one with PUT', async () => {
    const state = policyServer(managerStatus, {
      approvals_required: 1,
      reset_approvals_on_edit: true,
    });
    await openSettings();
    const form = await policyForm();
    const approvals = within(form).getByRole('spinbutton', { name: 'Approvals required' });
    const reset = within(form).getByRole('checkbox', {
      name: 'Reset approvals when the draft is edited',
    });
    expect((approvals as HTMLInputElement).value).toBe('1');
    expect((reset as HTMLInputElement).checked).toBe(true);

    await userEvent.clear(approvals);
    await userEvent.type(approvals, '2');
    await userEvent.click(reset);
    await userEvent.click(within(form).getByRole('button', { name: 'Save policy' }));

    expect(await screen.findByText('Saved the review policy.')).toBeTruthy();
    expect(state.puts).toEqual([{ approvals_required: 2, reset_approvals_on_edit: false }]);
    // The form starts again from the policy the server now holds.
    const saved = await policyForm();
    await waitFor(() =>
      expect(
        (within(saved).getByRole('spinbutton', { name: 'Approvals required' }) as HTMLInputElement)
          .value,
      ).toBe('2'),
    );
  });

  it('checks the number before calling the server', async () => {
    const state = policyServer(managerStatus);
    await openSettings();
    const form = await policyForm();
    const approvals = within(form).getByRole('spinbutton', { name: 'Approvals required' });
    await userEvent.clear(approvals);
    await userEvent.type(approvals, '6');
    await userEvent.click(within(form).getByRole('button', { name: 'Save policy' }));
    expect(await within(form).findByText('Enter a whole number from 0 to 5.')).toBeTruthy();
    expect(approvals.getAttribute('aria-invalid')).toBe('true');
    expect(state.puts).toEqual([]);
  });

  it("puts the server's field errors beside the field", async () => {
    policyServer(managerStatus);
    server.use(
      handle('setAccountPolicy', () => ({
        problem: {
          ...problemOf('invalid_request', 'The request body is not valid.'),
          errors: [{ path: '/approvals_required', message: 'Too many approvals for this plan.' }],
        },
      })),
    );
    await openSettings();
    const form = await policyForm();
    await userEvent.click(within(form).getByRole('button', { name: 'Save policy' }));
    expect(await within(form).findByText('Too many approvals for this plan.')).toBeTruthy();
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(
      within(form)
        .getByRole('spinbutton', { name: 'Approvals required' })
        .getAttribute('aria-invalid'),
    ).toBe('true');
  });

  it('says in words why the server refused it', async () => {
    policyServer(managerStatus);
    server.use(
      handle('setAccountPolicy', () => ({
        problem: problemOf('forbidden', 'This API key lacks the api_keys:manage permission'),
      })),
    );
    await openSettings();
    const form = await policyForm();
    await userEvent.click(within(form).getByRole('button', { name: 'Save policy' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The review policy was not saved. This API key lacks the api_keys:manage permission.',
    );
  });

  it('shows the policy read-only to a key that does not manage API keys', async () => {
    policyServer(ADMIN_STATUS, { approvals_required: 2, reset_approvals_on_edit: false });
    await openSettings();
    const section = await screen.findByRole('region', { name: 'Review policy' });
    expect(await within(section).findByText('2 approvals by others')).toBeTruthy();
    expect(within(section).getByText('No')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Review policy' })).toBeNull();
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('is hidden when the server does not offer it', async () => {
    policyServer(managerStatus);
    server.use(notOffered('getAccountPolicy'));
    const seen = recordRequests(server);
    await openSettings();
    await screen.findByRole('heading', { name: 'API keys' });
    await waitFor(() =>
      expect(seen.some((request) => request.url.endsWith('/account/policy'))).toBe(true),
    );
    expect(screen.queryByRole('heading', { name: 'Review policy' })).toBeNull();
  });

  it('is not asked for by a key that may not read configs', async () => {
    policyServer({ ...ADMIN_STATUS, permissions: ['api_keys:manage', 'policy:manage'] });
    const seen = recordRequests(server);
    await openSettings();
    await screen.findByRole('heading', { name: 'API keys' });
    expect(screen.queryByRole('heading', { name: 'Review policy' })).toBeNull();
    expect(seen.some((request) => request.url.endsWith('/account/policy'))).toBe(false);
  });
});
