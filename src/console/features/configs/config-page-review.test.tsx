import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import type { AuthStatus } from '../../../contract/auth-status';
import { problemOf } from '../../../contract/problem';
import { ConfigServer, DRAFT_AUTHOR, EDITED_AT } from '../../testing/config-server';
import { handle, recordRequests, setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';
import { fakeEditor, resetFakeEditor } from '../../editor/testing/fake-config-editor';

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

const AUTHOR: AuthStatus = { ...ADMIN_STATUS, email: DRAFT_AUTHOR };

/** A server with the draft cfg_d (by DRAFT_AUTHOR), seen through the key `status`. */
function open({
  status = ADMIN_STATUS,
  approvalsRequired = 1,
  requested = false,
  publishOnApproval = false,
}: {
  status?: AuthStatus;
  approvalsRequired?: number;
  requested?: boolean;
  publishOnApproval?: boolean;
} = {}) {
  const server = new ConfigServer({ status, approvalsRequired });
  server.add({ id: 'cfg_d', label: 'My draft' });
  if (requested) {
    server.reviewRequests.set('cfg_d', { by: DRAFT_AUTHOR, at: EDITED_AT, publishOnApproval });
  }
  connectForTest();
  http.use(...server.handlers);
  const view = renderRoutes(routes, { path: '/configs/cfg_d' });
  return { server, ...view };
}

const reviewRegion = () => screen.findByRole('region', { name: 'Review' });

/** The element a control's aria-describedby names, in words. */
function describedBy(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('the editor page: review', () => {
  it('lets the author request review with a note and publish-on-approval, and says what Publish waits for', async () => {
    const user = userEvent.setup();
    const seen = recordRequests(http);
    const { server } = open({ status: AUTHOR });
    const region = await reviewRegion();
    const publish = await screen.findByRole('button', { name: 'Publish' });
    expect((publish as HTMLButtonElement).disabled).toBe(true);
    expect(describedBy(publish)).toBe('Needs 1 more approval: 0 of 1. Request a review first.');

    await user.click(within(region).getByRole('button', { name: 'Request review' }));
    await user.type(within(region).getByLabelText(/^Note for the reviewers/), 'Desktop app');
    await user.click(within(region).getByLabelText('Publish when approved'));
    await user.click(within(region).getByRole('button', { name: 'Request review' }));

    expect(await screen.findByText('In review · 0 of 1 approval')).toBeTruthy();
    expect(server.reviewRequests.get('cfg_d')).toMatchObject({
      by: DRAFT_AUTHOR,
      publishOnApproval: true,
    });
    expect(describedBy(screen.getByRole('button', { name: 'Publish' }))).toBe(
      'Needs 1 more approval: 0 of 1.',
    );
    // Their own draft: Approve is greyed with the reason; Request changes stays theirs.
    const approve = within(region).getByRole('button', { name: 'Approve' });
    expect((approve as HTMLButtonElement).disabled).toBe(true);
    expect(describedBy(approve)).toMatch(/someone else approves your draft/);
    // The state comes from the draft's own record: the page never reads the config list.
    const lists = seen.filter((request) => new URL(request.url).pathname.endsWith('/configs'));
    expect(lists.map((request) => request.url)).toEqual([]);
  });

  it('shows a line comment in the timeline and at its line in the editor, and goes there', async () => {
    const user = userEvent.setup();
    const { server } = open({ requested: true });
    const region = await reviewRegion();
    expect(await within(region).findByText('No reviews yet.')).toBeTruthy();

    await user.type(within(region).getByLabelText('Comment'), 'Why iOS here?');
    await user.type(within(region).getByLabelText(/^Line/), '6');
    await user.click(within(region).getByRole('button', { name: 'Comment' }));

    const timeline = await within(region).findByRole('list', { name: 'Review timeline' });
    expect(within(timeline).getByText('Why iOS here?')).toBeTruthy();
    expect(within(timeline).getAllByRole('listitem')[0]?.textContent).toMatch(
      /^Commented · ada@example\.com · revision 1 · /,
    );
    await waitFor(() =>
      expect(fakeEditor.lineNotes).toEqual([{ line: 6, text: 'ada@example.com: Why iOS here?' }]),
    );
    await user.click(within(timeline).getByRole('button', { name: 'Go to line 6' }));
    expect(fakeEditor.revealedLines).toEqual([6]);
    expect(server.reviews.get('cfg_d')).toHaveLength(1);
  });

  it("puts the server's refusal of a line that does not exist at the line field, and saves nothing", async () => {
    const user = userEvent.setup();
    const { server } = open({ requested: true });
    const region = await reviewRegion();
    await user.type(within(region).getByLabelText('Comment'), 'Here?');
    await user.type(within(region).getByLabelText(/^Line/), '99');
    await user.click(within(region).getByRole('button', { name: 'Comment' }));

    const line = within(region).getByLabelText(/^Line/);
    await waitFor(() => expect(line.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(line)).toMatch(/Line 99 is past the last line of the draft/);
    expect(server.reviews.get('cfg_d')).toBeUndefined();
  });

  it('lets a reviewer request changes, then approve: the draft is published on approval', async () => {
    const user = userEvent.setup();
    const { server, history, queryClient } = open({ requested: true, publishOnApproval: true });
    const region = await reviewRegion();
    expect(await screen.findByText('In review · 0 of 1 approval')).toBeTruthy();

    await user.type(within(region).getByLabelText('Comment'), 'Rename the app');
    await user.click(within(region).getByRole('button', { name: 'Request changes' }));
    expect(await screen.findByText('Changes requested')).toBeTruthy();
    expect(describedBy(screen.getByRole('button', { name: 'Publish' }))).toMatch(
      /Changes were requested/,
    );

    // The author answers with an edit (elsewhere): the request held for the old revision.
    server.saveElsewhere('cfg_d', `${server.get('cfg_d').yaml}# renamed\n`);
    await user.click(within(region).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(history.location.pathname).toMatch(/^\/configs\/cfg_pub_/));
    expect(server.get(server.liveId).base_config_id).toBe('cfg_d');
    expect(
      await screen.findByText('Approved and published. This version is now live.'),
    ).toBeTruthy();
    // The published config's page has read it: no request of this test outlives the test.
    expect(await screen.findByText('Published')).toBeTruthy();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('greys Approve and Request changes with the reason for a key without config:publish', async () => {
    open({
      requested: true,
      status: { ...ADMIN_STATUS, permissions: ['config:read', 'config:write'] },
    });
    const region = await reviewRegion();
    for (const name of ['Approve', 'Request changes']) {
      const button = within(region).getByRole('button', { name });
      // The reason comes once the key's permissions have loaded.
      await waitFor(() => {
        expect((button as HTMLButtonElement).disabled).toBe(true);
        expect(describedBy(button)).toMatch(/need the config:publish permission/);
      });
    }
    // A comment needs only config:read.
    expect(
      (within(region).getByRole('button', { name: 'Comment' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("shows the server's approval_required problem in the publish dialog", async () => {
    const user = userEvent.setup();
    open({ approvalsRequired: 0 });
    // The policy changed since the page loaded: the server refuses.
    http.use(
      handle('publishConfig', () => ({
        problem: problemOf(
          'approval_required',
          'The draft cfg_d has 0 of 2 approvals on revision 1',
        ),
      })),
    );
    await user.click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(
      await within(dialog).findByText(
        'The draft was not published. The draft cfg_d has 0 of 2 approvals on revision 1.',
      ),
    ).toBeTruthy();
  });
});
