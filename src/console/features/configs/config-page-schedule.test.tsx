/**
 * "Schedule publish…" beside Publish on a draft's page: offered to whoever may publish, held
 * back with Publish for a draft with errors, offered while approvals are missing (the policy
 * is checked when it runs), and it schedules this draft.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import type { CreateScheduleRequest, Schedule } from '../../../contract/environments';
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
// The editor page is a lazy chunk.
configure({ asyncUtilTimeout: 5_000 });
beforeEach(() => resetFakeEditor());

const http = setupContractServer();
const VIEWER: AuthStatus = { ...ADMIN_STATUS, role: 'viewer', permissions: ['config:read'] };

/** The draft cfg_d on a server that offers schedules; what POST /schedules received. */
function open({
  status = ADMIN_STATUS,
  yaml = LIVE_YAML,
  pending = [] as Schedule[],
  approvalsRequired = 0,
} = {}) {
  const server = new ConfigServer({ status, approvalsRequired });
  server.add({ id: 'cfg_d', label: 'Bigger buttons', yaml });
  const posted: CreateScheduleRequest[] = [];
  connectForTest();
  http.use(
    ...server.handlers,
    handle('listSchedules', ({ query }) => ({
      status: 200,
      body: query.status === 'pending' ? pending : [],
    })),
    handle('createSchedule', ({ body }) => {
      posted.push(body);
      return { status: 201, body: scheduleOf(body) };
    }),
  );
  renderRoutes(routes, { path: '/configs/cfg_d' });
  return { posted, user: userEvent.setup() };
}

/** The words a control's aria-describedby points to. */
function describedBy(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('Schedule publish… on a draft', () => {
  it('sits right beside Publish and schedules the publish of this draft', async () => {
    const { posted, user } = open();
    const schedule = await screen.findByRole('button', { name: 'Schedule publish…' });
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect(publish.nextElementSibling).toBe(schedule);
    expect((schedule as HTMLButtonElement).disabled).toBe(false);
    // The Releases panel no longer offers a second way in.
    expect(screen.getAllByRole('button', { name: 'Schedule publish…' })).toHaveLength(1);

    await user.click(schedule);
    const dialog = screen.getByRole('dialog', { name: 'Schedule the publish of Bigger buttons' });
    const when = within(dialog).getByLabelText('Publish at');
    await user.clear(when);
    await user.type(when, '2099-01-05T09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule publish' }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      at: new Date('2099-01-05T09:00').toISOString(),
      config_id: 'cfg_d',
      action: 'publish',
    });
    expect(await screen.findByText(/^Bigger buttons will be published at /)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is held back with Publish, and says why the same way', async () => {
    open({ yaml: LIVE_YAML.replace('platform: ios', 'platform: desktop') });
    const schedule = await screen.findByRole('button', { name: 'Schedule publish…' });
    const publish = screen.getByRole('button', { name: 'Publish' });
    expect((publish as HTMLButtonElement).disabled).toBe(true);
    expect((schedule as HTMLButtonElement).disabled).toBe(true);
    expect(describedBy(schedule)).toBe('Fix the errors before publishing.');
    expect(describedBy(schedule)).toBe(describedBy(publish));
  });

  it('may be scheduled while the approvals Publish waits for are missing', async () => {
    open({ approvalsRequired: 1 });
    const schedule = await screen.findByRole('button', { name: 'Schedule publish…' });
    const publish = screen.getByRole('button', { name: 'Publish' });
    await waitFor(() => expect((publish as HTMLButtonElement).disabled).toBe(true));
    expect(describedBy(publish)).toMatch(/approval/);
    expect((schedule as HTMLButtonElement).disabled).toBe(false);
    expect(schedule.getAttribute('aria-describedby')).toBeNull();
  });

  it('is not offered to a viewer', async () => {
    const waiting = scheduleOf({
      at: '2099-01-05T09:00:00.000Z',
      config_id: 'cfg_d',
      action: 'publish',
    });
    open({ status: VIEWER, pending: [waiting] });
    // The schedules have arrived (the viewer reads them) before looking for what is missing.
    const releases = await screen.findByRole('region', { name: 'Releases' });
    expect(within(releases).getByRole('list', { name: 'Scheduled changes' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'History' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Schedule publish…' })).toBeNull();
  });
});

function scheduleOf(body: CreateScheduleRequest): Schedule {
  return {
    id: 'sch_1',
    account_id: 'acc_1',
    config_id: body.config_id,
    action: 'publish',
    summary: null,
    at: body.at,
    status: 'pending',
    reason: null,
    result_config_id: null,
    scheduled_by: { user_id: 'usr_1', email: 'ada@example.com', api_key_id: null },
    created_at: '2026-11-27T09:00:00.000Z',
    finished_at: null,
  };
}
