import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/routes';
import { ConfigServer, EDITED_AT, LIVE_YAML } from '../../testing/config-server';
import { setupContractServer } from '../../testing/msw-contract';
import { connectForTest, renderRoutes } from '../../testing/test-utils';
import type { EditorMarker } from '../../editor/editor-types';
import { textPositions } from '../../editor/markers';
import { fakeEditor, resetFakeEditor } from '../../editor/testing/fake-config-editor';
import { configsKeys } from '../../api/config-keys';
import { textChangesBetween } from '../../../configs/text-edit';

// Monaco does not run in jsdom: the page gets the same handle from a textarea.
vi.mock(
  '../../editor/monaco/config-editor',
  () => import('../../editor/testing/fake-config-editor'),
);
vi.mock('../../editor/monaco/diff-view', async () => ({
  default: (await import('../../editor/testing/fake-config-editor')).FakeDiffView,
}));

// The editor page is a lazy chunk, and the worker's stand-in imports the config domain:
// the first render of a run takes a while on a busy machine.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => resetFakeEditor());

const http = setupContractServer();

function open(path: string, server = new ConfigServer()) {
  connectForTest();
  http.use(...server.handlers);
  const view = renderRoutes(routes, { path });
  return { server, ...view };
}

/** The text a marker covers. */
function marked(text: string, marker: EditorMarker): string {
  const positions = textPositions(text);
  return text.slice(
    positions.getOffsetAt({ lineNumber: marker.startLineNumber, column: marker.startColumn }),
    positions.getOffsetAt({ lineNumber: marker.endLineNumber, column: marker.endColumn }),
  );
}

/** The line under the h1: kind, revision, base. */
function meta(): string {
  return document.querySelector('.config-meta')?.textContent ?? '';
}

async function editor(): Promise<HTMLTextAreaElement> {
  return (await screen.findByRole('textbox', { name: 'Config YAML' })) as HTMLTextAreaElement;
}

/** The person's edit: the whole new text (what typing would leave). */
function typeText(textarea: HTMLTextAreaElement, text: string): void {
  fireEvent.input(textarea, { target: { value: text } });
}

async function save(summary: string | null) {
  const user = userEvent.setup();
  if (summary !== null) await user.type(screen.getByLabelText(/^Summary/), summary);
  await user.click(screen.getByRole('button', { name: 'Save draft' }));
  return user;
}

const WITH_DESKTOP = `${LIVE_YAML}  - id: desktop
    name: Desktop 🚀
    platform: desktop
    colour: blue
`;

describe('the editor page: saving', () => {
  it('saves an edit of the live config as a new draft and moves to its URL', async () => {
    const { server, history } = open('/configs/live');
    expect(await screen.findByRole('heading', { level: 1, name: 'Initial config' })).toBeTruthy();
    typeText(await editor(), WITH_DESKTOP);
    await save('Add the desktop app');

    await waitFor(() => expect(history.location.pathname).toBe('/configs/cfg_draft_1'));
    expect(await screen.findByText('Saved as a new draft from Initial config.')).toBeTruthy();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Add the desktop app' }),
    ).toBeTruthy();
    await waitFor(() => expect(meta()).toBe('Draft · revision 1 · from Initial config'));

    // The request: operations, the summary, no config_id (the live config), If-Match.
    expect(server.edits).toHaveLength(1);
    const [{ body, ifMatch }] = server.edits as [ConfigServer['edits'][number]];
    // The live config's ETag: an edit never lands on another config gone live meanwhile.
    expect(ifMatch).toBe('"cfg_live:1"');
    expect(body).toEqual({
      operations: [
        {
          create_app: [{ id: 'desktop', name: 'Desktop 🚀', platform: 'desktop', colour: 'blue' }],
        },
        { edit_text: [{ changes: textChangesBetween(LIVE_YAML, WITH_DESKTOP) }] },
      ],
      summary: 'Add the desktop app',
    });

    // One marker per issue, where the issue is in the text the editor shows.
    const text = (await editor()).value;
    await waitFor(() => expect(fakeEditor.markers).toHaveLength(2));
    expect(fakeEditor.markers.map((marker) => [marker.severity, marked(text, marker)])).toEqual([
      ['error', 'desktop'],
      ['warning', 'colour'],
    ]);

    const problems = screen.getByRole('region', { name: 'Problems' });
    expect(within(problems).getByText('1 error, 1 warning')).toBeTruthy();
    const platform = within(problems).getByRole('button', {
      name: /^11:15 apps\[2\]\.platform must be one of/,
    });
    // The new draft's page still names the operation behind each issue.
    expect(platform.parentElement?.textContent).toContain('from create_app desktop');

    // The applied path (the new app) is highlighted: its lines.
    await waitFor(() => expect(fakeEditor.highlights).toHaveLength(1));
    const [highlight] = fakeEditor.highlights as [(typeof fakeEditor.highlights)[number]];
    expect(text.slice(highlight.start, highlight.end)).toMatch(/^id: desktop\n/);
  });

  it('saves a comment-only change as the text typed, and keeps it after the save', async () => {
    const { server } = open('/configs/live');
    const typed = LIVE_YAML.replace('# Apps\n', '');
    typeText(await editor(), typed);
    await save('Drop the header comment');
    expect(await screen.findByText('Saved as a new draft from Initial config.')).toBeTruthy();
    expect(server.edits.map(({ body }) => body.operations)).toEqual([
      [{ edit_text: [{ changes: [{ offset: 0, delete_count: 7, insert: '' }] }] }],
    ]);
    await waitFor(async () => expect((await editor()).value).toBe(typed));
  });

  it('keeps the quotes and comments typed in an edit, byte for byte', async () => {
    const server = new ConfigServer();
    server.add({ id: 'cfg_draft', label: 'A draft' });
    open('/configs/cfg_draft', server);
    const typed = `${LIVE_YAML}  # the new one\n  - id: rocket\n    name: "🚀 Rocket"\n    platform: 'web'\n`;
    typeText(await editor(), typed);
    await save('Add the rocket');
    expect(await screen.findByText('Saved: revision 2.')).toBeTruthy();
    expect((await editor()).value).toBe(typed);
  });

  it('offers Save draft only once the text changed, and says so on Ctrl+S', async () => {
    const { server } = open('/configs/live');
    const textarea = await editor();
    const saveButton = screen.getByRole('button', { name: 'Save draft' }) as HTMLButtonElement;
    await waitFor(() => expect(saveButton.disabled).toBe(true));
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    expect(await screen.findByText('Nothing to save: the text is as it was saved.')).toBeTruthy();
    typeText(textarea, LIVE_YAML.replace('Checkout', 'Till'));
    await waitFor(() => expect(saveButton.disabled).toBe(false));
    typeText(textarea, LIVE_YAML);
    await waitFor(() => expect(saveButton.disabled).toBe(true));
    expect(server.edits).toHaveLength(0);
  });

  it('saves the meaning, with a notice, when the service will not take the typed text', async () => {
    const { server } = open('/configs/live');
    // JSON has no infinity: the operation carries null, which the text does not say.
    const typed = LIVE_YAML.replace(
      '    name: Checkout\n',
      '    name: Checkout\n    limit: .inf\n',
    );
    typeText(await editor(), typed);
    await save('Unlimited');
    expect(
      await screen.findByText(
        /^Saved as a new draft from Initial config\. Your formatting could not be kept/,
      ),
    ).toBeTruthy();
    expect(server.edits.map(({ body }) => body.operations.map((o) => Object.keys(o)[0]))).toEqual([
      ['update_app', 'edit_text'],
      ['update_app'],
    ]);
    await waitFor(async () => expect((await editor()).value).toContain('limit: null'));
  });

  it('refuses text that does not parse, and posts nothing', async () => {
    const { server } = open('/configs/live');
    typeText(await editor(), `${LIVE_YAML}  - id: [broken\n`);
    await save('Broken');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Fix the syntax errors before saving.',
    );
    expect(server.edits).toHaveLength(0);
  });

  it('lists the syntax errors as problems with their positions, and says why Save is refused', async () => {
    open('/configs/live');
    const broken = LIVE_YAML.replace('name: Checkout', 'name: Checkout: broken');
    const line = broken.split('\n').findIndex((text) => text.includes('Checkout: broken')) + 1;
    typeText(await editor(), broken);

    const problems = screen.getByRole('region', { name: 'Problems' });
    expect(await within(problems).findByText('1 syntax error')).toBeTruthy();
    expect(within(problems).getByText('Fix the syntax errors before saving.')).toBeTruthy();
    const item = within(problems).getByRole('button', { name: new RegExp(`^${line}:\\d+ `) });
    expect(item.closest('li')?.textContent).toMatch(/^Syntax error/);

    // Choosing it moves the editor to the error.
    await userEvent.click(item);
    expect(fakeEditor.selected).toMatchObject([{ code: 'yaml.syntax', line }]);

    // Fixed, the list is empty again.
    typeText(await editor(), LIVE_YAML);
    expect(await within(problems).findByText('No problems')).toBeTruthy();
    expect(within(problems).queryByText('Fix the syntax errors before saving.')).toBeNull();
  });

  it('asks for a summary before posting', async () => {
    const { server } = open('/configs/live');
    typeText(await editor(), LIVE_YAML.replace('name: Checkout', 'name: Checkout 2'));
    await save(null);
    expect(await screen.findByText('Enter a summary: say what the edit does.')).toBeTruthy();
    expect(server.edits).toHaveLength(0);
  });

  it('saves a draft in place: the server text, its markers, the new revision (Ctrl+S)', async () => {
    const server = new ConfigServer();
    server.add({
      id: 'cfg_d',
      label: 'My draft',
      revision: 4,
    });
    const { queryClient } = open('/configs/cfg_d', server);
    expect(await screen.findByRole('link', { name: 'Initial config' })).toBeTruthy();
    const textarea = await editor();
    // Odd spacing: the server keeps the text as typed, and the marker sits on it.
    const typed = LIVE_YAML.replace('platform: ios', 'platform:    desktop');
    typeText(textarea, typed);
    await userEvent.type(screen.getByLabelText(/^Summary/), 'iOS to desktop');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });

    expect(await screen.findByText('Saved: revision 5.')).toBeTruthy();
    // The cache holds the config as the server says it is now (its times too), unrefetched.
    expect(queryClient.getQueryData(configsKeys.detail('cfg_d'))).toEqual(server.get('cfg_d'));
    expect(server.get('cfg_d').updated_at).toBe(EDITED_AT);
    // Made on revision 4: the server merges it with any edit saved since.
    expect(server.edits[0]).toMatchObject({
      ifMatch: null,
      body: { config_id: 'cfg_d', summary: 'iOS to desktop', base_revision: 4 },
    });
    expect(textarea.value).toBe(typed);
    expect(server.get('cfg_d').yaml).toBe(typed);
    expect(meta()).toBe('Draft · revision 5 · from Initial config');
    const [marker] = fakeEditor.markers as [(typeof fakeEditor.markers)[number]];
    expect(marker).toMatchObject({ startLineNumber: 8, startColumn: 18, endColumn: 25 });
    // Invalid now: no publishing, and the page says why.
    expect(screen.getByRole('button', { name: 'Publish' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Fix the errors before publishing.')).toBeTruthy();

    // Choosing a problem moves the editor there.
    await userEvent.click(
      within(screen.getByRole('region', { name: 'Problems' })).getByRole('button', {
        name: /^8:18 /,
      }),
    );
    expect(fakeEditor.revealed).toEqual([0]);
  });

  it('names the operation behind each issue after a save, and links each operation to its issues', async () => {
    const server = new ConfigServer();
    server.add({ id: 'cfg_d', label: 'My draft', revision: 4 });
    open('/configs/cfg_d', server);
    const textarea = await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Show operations' }));
    const problems = screen.getByRole('region', { name: 'Problems' });
    const operations = await screen.findByRole('region', { name: 'Operations' });
    // Before any save on this page, nothing is named.
    expect(problems.textContent).not.toContain('from ');
    expect(operations.textContent).not.toContain('The last save');

    typeText(textarea, LIVE_YAML.replace('platform: ios', 'platform: desktop'));
    await save('iOS to desktop');
    expect(await screen.findByText('Saved: revision 5.')).toBeTruthy();
    const issue = within(problems).getByRole('button', { name: /^8:15 / });
    expect(issue.parentElement?.textContent).toContain('from update_app ios-app');

    expect(operations.textContent).toContain('The last save');
    expect(operations.textContent).toContain('Caused 1 issue:');
    await userEvent.click(within(operations).getByRole('button', { name: /^8:15 / }));
    expect(fakeEditor.revealed).toEqual([0]);
  });

  it('shows the operations a save would post', async () => {
    open('/configs/live');
    typeText(await editor(), LIVE_YAML.replace('name: Checkout', 'name: Checkout 2'));
    await userEvent.click(screen.getByRole('button', { name: 'Show operations' }));
    const region = await screen.findByRole('region', { name: 'Operations' });
    await waitFor(() => expect(region.textContent).toContain('update_app'));
    expect(region.textContent).toContain('"name": "Checkout 2"');
  });
});

describe('the editor page: another config went live (412)', () => {
  /** The live page's edit names the live config it showed; then another one goes live. */
  async function editWhileAnotherGoesLive(server: ConfigServer, newer: string) {
    open('/configs/live', server);
    const textarea = await editor();
    typeText(textarea, LIVE_YAML.replace('name: Checkout', 'name: Checkout 2'));
    server.add({ id: 'cfg_pub_9', label: 'Newer version', kind: 'published', yaml: newer });
    server.makeLive('cfg_pub_9');
    await save('Rename checkout');
    return textarea;
  }

  it('re-applies the edit on top of the newer version, then saves it', async () => {
    const server = new ConfigServer();
    const newer = LIVE_YAML.replace('platform: ios', 'platform: android');
    const textarea = await editWhileAnotherGoesLive(server, newer);

    const dialog = await screen.findByRole('dialog', { name: 'This config has changed' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Re-apply my edit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(textarea.value).toContain('name: Checkout 2');
    expect(textarea.value).toContain('platform: android');
    expect(await screen.findByRole('heading', { level: 1, name: 'Newer version' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Saved as a new draft from Newer version.')).toBeTruthy();
    expect(server.edits.map((edit) => edit.ifMatch)).toEqual(['"cfg_live:1"', '"cfg_pub_9:1"']);
    expect(server.get('cfg_draft_1').yaml).toContain('platform: android');
    expect(server.get('cfg_draft_1').yaml).toContain('name: Checkout 2');
  });

  it('reloads the newer version, dropping the edit', async () => {
    const server = new ConfigServer();
    const newer = LIVE_YAML.replace('platform: ios', 'platform: android');
    const textarea = await editWhileAnotherGoesLive(server, newer);
    const dialog = await screen.findByRole('dialog', { name: 'This config has changed' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reload the newer version' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(textarea.value).toBe(newer);
    expect(await screen.findByRole('heading', { level: 1, name: 'Newer version' })).toBeTruthy();
  });
});

describe('the editor page: around it', () => {
  it('asks before leaving with unsaved edits', async () => {
    const { history } = open('/configs/live');
    typeText(await editor(), LIVE_YAML.replace('name: Checkout', 'name: Checkout 2'));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(history.location.pathname).toBe('/configs/live');

    await userEvent.click(within(nav).getByRole('link', { name: 'Settings' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole(
        'button',
        { name: 'Leave' },
      ),
    );
    await waitFor(() => expect(history.location.pathname).toBe('/settings'));
  });

  it('publishes a valid draft and moves to the published version', async () => {
    const server = new ConfigServer();
    server.add({
      id: 'cfg_d',
      label: 'Good draft',
      yaml: LIVE_YAML.replace('name: Checkout', 'name: Checkout 2'),
    });
    const { history } = open('/configs/cfg_d', server);
    await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish Good draft?' });
    expect(await within(dialog).findByRole('group', { name: 'Changes to publish' })).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/^Version label/), 'v2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(history.location.pathname).toBe('/configs/cfg_pub_1'));
    expect(await screen.findByText('Published. This version is now live.')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'v2' })).toBeTruthy();
  });

  it('says so when the server does not offer the live config', async () => {
    open('/configs/live', new ConfigServer({ offersConfigs: false }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This server does not offer the live config',
    );
  });
});
