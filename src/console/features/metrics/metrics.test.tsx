import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import { routes } from '../../app/routes';
import { ConfigServer } from '../../testing/config-server';
import { MetricServer } from '../../testing/metric-server';
import { notOffered, recordRequests, setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';
import { NOTHING_CHANGED } from './components/edit-metric-dialog';
import { CANNOT_CHANGE_METRICS } from './metrics-page';

// The page is a lazy chunk.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

const VIEWER: AuthStatus = { ...ADMIN_STATUS, role: 'viewer', permissions: ['config:read'] };

function serverWithMetrics(): MetricServer {
  return new MetricServer([
    {
      id: 'purchase',
      name: 'Purchase',
      kind: 'binomial',
      event: 'purchase',
      used_by: [
        { test_id: 'bigger-button', role: 'goal' },
        { test_id: 'dark-mode', role: 'guardrail' },
      ],
    },
    {
      id: 'errors',
      name: 'Errors',
      kind: 'count',
      event: 'error',
      window_hours: 24,
      inverse: true,
      cap: 10,
    },
  ]);
}

function open(metrics = serverWithMetrics(), status: AuthStatus = ADMIN_STATUS) {
  const configs = new ConfigServer({ status });
  connectForTest();
  http.use(...configs.handlers, ...metrics.handlers);
  const requests = recordRequests(http);
  return {
    metrics,
    requests,
    user: userEvent.setup(),
    ...renderRoutes(routes, { path: '/metrics' }),
  };
}

async function metricRow(name: string) {
  const table = await screen.findByRole('table', { name: 'Metrics' });
  return within(table).getByRole('row', { name: new RegExp(`^${name}`) });
}

/** The error message shown beside a field (its aria-describedby's last entry). */
function errorOf(label: string | RegExp, container: HTMLElement = document.body) {
  const field = within(container).getByLabelText(label);
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return document.getElementById(ids.at(-1) ?? '')?.textContent;
}

describe('the Metrics page', () => {
  it('is in the navigation beside A/B tests', async () => {
    open();
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links.slice(links.indexOf('A/B tests'), links.indexOf('A/B tests') + 2)).toEqual([
      'A/B tests',
      'Metrics',
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Metrics' })).toBeTruthy();
  });

  it('lists the metrics with what they measure and the tests that use them', async () => {
    open();
    const purchase = await metricRow('Purchase');
    expect(purchase.textContent).toContain('Conversion: did the event at least once');
    expect(purchase.textContent).toContain('72 h');
    expect(within(purchase).getByRole('link', { name: 'bigger-button' }).getAttribute('href')).toBe(
      '/ab-tests/live/bigger-button',
    );
    expect(purchase.textContent).toContain('bigger-button (goal), dark-mode (guardrail)');
    const errors = await metricRow('Errors');
    expect(errors.textContent).toContain('Count: how many times');
    expect(errors.textContent).toContain('24 h');
    expect(errors.textContent).toContain('Yes');
    expect(errors.textContent).toContain('No test');
  });

  it('defines a metric, sending exactly what was typed', async () => {
    const { user, metrics } = open();
    const form = await screen.findByRole('form', { name: 'Define a metric' });
    await user.type(within(form).getByLabelText(/^Id/), 'revenue');
    await user.type(within(form).getByLabelText(/^Name/), 'Revenue');
    await user.selectOptions(within(form).getByLabelText(/^Measures/), 'mean');
    await user.type(within(form).getByLabelText(/^Event/), 'order');
    const window = within(form).getByLabelText(/^Window/);
    await user.clear(window);
    await user.type(window, '168');
    await user.type(within(form).getByLabelText(/^Cap/), '500');
    await user.click(within(form).getByRole('button', { name: 'Define metric' }));

    expect(await metricRow('Revenue')).toBeTruthy();
    expect(metrics.created).toEqual([
      {
        id: 'revenue',
        name: 'Revenue',
        kind: 'mean',
        event: 'order',
        window_hours: 168,
        inverse: false,
        cap: 500,
      },
    ]);
    // The form is empty again for the next one.
    expect((within(form).getByLabelText(/^Id/) as HTMLInputElement).value).toBe('');
  });

  it('puts mistakes beside their fields before sending anything', async () => {
    const { user, metrics } = open();
    const form = await screen.findByRole('form', { name: 'Define a metric' });
    await user.type(within(form).getByLabelText(/^Id/), 'Revenue!');
    const window = within(form).getByLabelText(/^Window/);
    await user.clear(window);
    await user.type(window, '5000');
    await user.type(within(form).getByLabelText(/^Cap/), '-1');
    await user.click(within(form).getByRole('button', { name: 'Define metric' }));

    await waitFor(() =>
      expect(errorOf(/^Id/, form)).toBe(
        'Lowercase letters, digits and -, starting with a letter (at most 63).',
      ),
    );
    expect(errorOf(/^Name/, form)).toBe('Name the metric.');
    expect(errorOf(/^Event/, form)).toBe('Name the event the app tracks.');
    expect(errorOf(/^Window/, form)).toBe('Enter a whole number of hours, 1 to 2160.');
    expect(errorOf(/^Cap/, form)).toBe('Enter a number above 0, or nothing.');
    expect(metrics.created).toEqual([]);
  });

  it('shows the server’s field errors on their fields', async () => {
    const metrics = serverWithMetrics();
    metrics.refuseField = { path: '/event', message: 'is not an event this account receives' };
    const { user } = open(metrics);
    const form = await screen.findByRole('form', { name: 'Define a metric' });
    await user.type(within(form).getByLabelText(/^Id/), 'signup');
    await user.type(within(form).getByLabelText(/^Name/), 'Sign-up');
    await user.type(within(form).getByLabelText(/^Event/), 'signup');
    await user.click(within(form).getByRole('button', { name: 'Define metric' }));
    await waitFor(() =>
      expect(errorOf(/^Event/, form)).toBe('is not an event this account receives'),
    );
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('says a taken id (409) in words', async () => {
    const { user } = open();
    const form = await screen.findByRole('form', { name: 'Define a metric' });
    await user.type(within(form).getByLabelText(/^Id/), 'purchase');
    await user.type(within(form).getByLabelText(/^Name/), 'Purchase again');
    await user.type(within(form).getByLabelText(/^Event/), 'purchase');
    await user.click(within(form).getByRole('button', { name: 'Define metric' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'The metric was not defined. A metric with the id purchase exists already.',
    );
  });

  it('edits a metric, sending only what changed', async () => {
    const { user, metrics, requests } = open();
    await user.click(
      within(await metricRow('Errors')).getByRole('button', { name: 'Edit Errors' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Errors' });
    expect(within(dialog).queryByLabelText(/^Id/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(NOTHING_CHANGED)).toBeTruthy();
    expect(metrics.updated).toEqual([]);

    await user.clear(within(dialog).getByLabelText(/^Name/));
    await user.type(within(dialog).getByLabelText(/^Name/), 'Client errors');
    await user.clear(within(dialog).getByLabelText(/^Cap/));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(metrics.updated).toEqual([{ id: 'errors', body: { name: 'Client errors', cap: null } }]);
    const patch = requests.find((request) => request.method === 'PATCH');
    expect(new URL(patch?.url ?? '').pathname).toBe('/api/v1/metrics/errors');
    expect(await metricRow('Client errors')).toBeTruthy();
  });

  it('puts the server’s refusal of an edit on its field', async () => {
    const metrics = serverWithMetrics();
    const { user } = open(metrics);
    await user.click(
      within(await metricRow('Errors')).getByRole('button', { name: 'Edit Errors' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Errors' });
    metrics.refuseField = { path: '/window_hours', message: 'is too long for this account' };
    const window = within(dialog).getByLabelText(/^Window/);
    await user.clear(window);
    await user.type(window, '2000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorOf(/^Window/, dialog)).toBe('is too long for this account'));
    expect(screen.getByRole('dialog', { name: 'Edit Errors' })).toBeTruthy();
  });

  it('deletes after a confirmation that names the tests using the metric', async () => {
    const { user, metrics, requests } = open();
    await user.click(
      within(await metricRow('Purchase')).getByRole('button', { name: 'Delete Purchase' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete Purchase?' });
    expect(dialog.textContent).toContain(
      '2 A/B tests use this metric: bigger-button (goal), dark-mode (guardrail).',
    );
    expect(dialog.textContent).toContain('their results will leave it out');
    // Cancel has the focus: an Enter by habit deletes nothing.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(metrics.deleted).toEqual(['purchase']);
    const removal = requests.find((request) => request.method === 'DELETE');
    expect(new URL(removal?.url ?? '').pathname).toBe('/api/v1/metrics/purchase');
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Metrics' })).queryByRole('row', {
          name: /^Purchase/,
        }),
      ).toBeNull(),
    );
  });

  it('says plainly when no test uses the metric being deleted', async () => {
    const { user } = open();
    await user.click(
      within(await metricRow('Errors')).getByRole('button', { name: 'Delete Errors' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Delete Errors?' });
    expect(dialog.textContent).toContain('No A/B test of the live config uses errors.');
  });

  it('offers a key without config:write the list alone', async () => {
    const { requests } = open(serverWithMetrics(), VIEWER);
    const purchase = await metricRow('Purchase');
    expect(within(purchase).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Define a metric' })).toBeNull();
    expect(screen.getByText(CANNOT_CHANGE_METRICS)).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: 'Metrics' })).queryByRole('columnheader', {
        name: 'Actions',
      }),
    ).toBeNull();
    expect(requests.every((request) => request.method === 'GET')).toBe(true);
  });

  it('says so on a server without metrics', async () => {
    const configs = new ConfigServer();
    connectForTest();
    http.use(...configs.handlers, notOffered('listMetrics'));
    renderRoutes(routes, { path: '/metrics' });
    expect(await screen.findByText('This server does not offer metrics.')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Define a metric' })).toBeNull();
  });
});
