import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { ConfigServer, LIVE_YAML } from '../../testing/config-server';
import { setupContractServer } from '../../testing/msw-contract';
import { connectForTest, renderRoutes } from '../../testing/test-utils';
import { resetFakeEditor } from '../../editor/testing/fake-config-editor';

// Monaco does not run in jsdom: the page gets the same handle from a textarea.
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

const RENAMED = LIVE_YAML.replace('name: Checkout', 'name: Checkout 2');
const ANDROID = LIVE_YAML.replace('platform: ios', 'platform: android');
const IOS_APP = (platform: string) =>
  `- id: ios-app\n    name: Shop for iOS\n    platform: ${platform}\n`;
const MERGE_VIEW = 'Your edit and a newer one changed the same fields';

/** A page on the shared draft `cfg_d` (revision 1, the live config's text). */
async function openDraft(server = new ConfigServer()) {
  server.add({ id: 'cfg_d', label: 'Shared draft' });
  connectForTest();
  http.use(...server.handlers);
  renderRoutes(routes, { path: '/configs/cfg_d' });
  const textarea = (await screen.findByRole('textbox', {
    name: 'Config YAML',
  })) as HTMLTextAreaElement;
  return { server, textarea };
}

function typeText(textarea: HTMLTextAreaElement, text: string): void {
  fireEvent.input(textarea, { target: { value: text } });
}

async function save(summary: string) {
  await userEvent.type(screen.getByLabelText(/^Summary/), summary);
  await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
}

function meta(): string {
  return document.querySelector('.config-meta')?.textContent ?? '';
}

describe('the editor page: edits that merge', () => {
  it('merges with an edit saved meanwhile, says whose, and shows the merged text', async () => {
    const { server, textarea } = await openDraft();
    typeText(textarea, RENAMED);
    server.saveElsewhere('cfg_d', ANDROID, 'ana@example.com');
    await save('Rename checkout');

    expect(
      await screen.findByText(
        "Saved: revision 3. Merged with ana@example.com's edit (revision 2).",
      ),
    ).toBeTruthy();
    // The typed text, carried onto the newer one: both changes, as the server saved them.
    const saved = server.get('cfg_d').yaml;
    expect(saved).toBe(RENAMED.replace('platform: ios', 'platform: android'));
    expect(textarea.value).toBe(saved);
    expect(meta()).toContain('revision 3');
    expect(server.edits).toMatchObject([{ ifMatch: null, body: { base_revision: 1 } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('names the revisions when there are several', async () => {
    const { server, textarea } = await openDraft();
    typeText(textarea, RENAMED);
    server.saveElsewhere('cfg_d', ANDROID, 'ana@example.com');
    server.saveElsewhere('cfg_d', ANDROID.replace('name: Shop for iOS', 'name: Shop'), 'bo@x.io');
    await save('Rename checkout');
    expect(
      await screen.findByText(
        'Saved: revision 4. Merged with the edits of ana@example.com (revision 2) and bo@x.io (revision 3).',
      ),
    ).toBeTruthy();
    expect(textarea.value).toContain('name: Shop\n');
    expect(textarea.value).toContain('name: Checkout 2');
  });

  it('says so when the typed text could not be carried over the newer edit', async () => {
    const { server, textarea } = await openDraft();
    typeText(textarea, RENAMED);
    // One stretch of their text, from the first line to the last, takes in the rename.
    server.saveElsewhere('cfg_d', ANDROID.replace('# Apps\n', '# All apps\n'));
    await save('Rename checkout');
    expect(
      await screen.findByText(
        "Saved: revision 3. Merged with ana@example.com's edit (revision 2). Your formatting could not be kept, so the service wrote the text: your typed changes meet the newer edits' changes to the text.",
      ),
    ).toBeTruthy();
    const saved = server.get('cfg_d').yaml;
    expect(saved).toContain('name: Checkout 2');
    expect(saved).toContain('platform: android');
    expect(textarea.value).toBe(saved);
  });
});

describe('the editor page: a change of the text alone that meets a newer one', () => {
  it('is refused in words, and the typed text stays in the editor', async () => {
    const { server, textarea } = await openDraft();
    const typed = LIVE_YAML.replace('# Apps\n', '# Mine\n');
    typeText(textarea, typed);
    server.saveElsewhere('cfg_d', LIVE_YAML.replace('# Apps\n', '# Theirs\n'));
    await save('Retitle');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The edit changes only the text, and its changes meet those of revisions 2',
    );
    expect(textarea.value).toBe(typed);
    expect(server.get('cfg_d').yaml).toContain('# Theirs');
  });
});

describe('the editor page: the merge view', () => {
  /** Both change the iOS app's platform; the person also renames checkout. */
  async function conflict() {
    const opened = await openDraft();
    typeText(opened.textarea, RENAMED.replace('platform: ios', 'platform: web'));
    opened.server.saveElsewhere('cfg_d', ANDROID, 'ana@example.com');
    await save('Rename checkout, iOS to web');
    const dialog = await screen.findByRole('dialog', { name: MERGE_VIEW });
    return { ...opened, dialog };
  }

  it('shows each field both changed: base, theirs with who and when, and mine', async () => {
    const { dialog, server } = await conflict();
    const field = within(dialog).getByRole('group', { name: '/apps/1/platform' });
    const headers = within(field)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual([
      'Base',
      'Theirs: ana@example.com, revision 2, 2026-11-22 11:00 UTC',
      'Yours',
    ]);
    expect(
      within(field)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['"ios"', '"android"', '"web"']);
    expect(within(field).getByRole('radio', { name: 'Keep theirs' })).toBeTruthy();
    // Nothing is saved until each field is chosen for.
    const saveButton = within(dialog).getByRole('button', { name: 'Save with these choices' });
    expect(saveButton.hasAttribute('disabled')).toBe(true);
    expect(server.get('cfg_d').revision).toBe(2);
  });

  it('saves mine where the person chose "Use mine", with the rest of both edits', async () => {
    const { dialog, server, textarea } = await conflict();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Use mine' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save with these choices' }));
    expect(await screen.findByText('Saved: revision 3.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const saved = server.get('cfg_d').yaml;
    expect(saved).toContain(IOS_APP('web'));
    expect(saved).toContain('name: Checkout 2');
    expect(textarea.value).toBe(saved);
    // The resolved edit is made on the newer revision.
    expect(server.edits.map(({ body }) => body.base_revision)).toEqual([1, 2]);
  });

  it('saves theirs where the person chose "Keep theirs", and the rest of their edit', async () => {
    const { dialog, server, textarea } = await conflict();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Keep theirs' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save with these choices' }));
    expect(await screen.findByText('Saved: revision 3.')).toBeTruthy();
    const saved = server.get('cfg_d').yaml;
    expect(saved).toContain(IOS_APP('android'));
    expect(saved).toContain('name: Checkout 2');
    expect(textarea.value).toBe(saved);
  });

  it("keeps the person's text in the editor when they cancel", async () => {
    const { dialog, server, textarea } = await conflict();
    const typed = textarea.value;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(textarea.value).toBe(typed);
    expect(server.edits).toHaveLength(1);
    expect(server.get('cfg_d').yaml).toBe(ANDROID);
  });

  it('compares long values in the diff editor', async () => {
    const { server, textarea } = await openDraft();
    const withSettings = (theme: string) =>
      LIVE_YAML.replace(
        '    platform: web\n',
        `    platform: web\n    settings:\n      banner:\n        text: ${theme}\n        colour: blue\n`,
      );
    typeText(textarea, withSettings('Welcome back'));
    server.saveElsewhere('cfg_d', withSettings('Hello'));
    await save('A banner');
    const dialog = await screen.findByRole('dialog', { name: MERGE_VIEW });
    const diff = await within(dialog).findByRole('group', { name: /: theirs and yours$/ });
    expect(diff.textContent).toContain('"text": "Hello"');
    expect(diff.textContent).toContain('"text": "Welcome back"');
  });
});
