import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { configData, parseConfig } from '../../../configs';
import { deliveryViewOf } from '../../../configs/delivery-view';
import { assign, bucketOf, MAX_UNIT_ID_LENGTH } from '../../../contract/assignment';
import { routes } from '../../app/routes';
import { ConfigServer } from '../../testing/config-server';
import { setupContractServer } from '../../testing/msw-contract';
import { connectForTest, renderRoutes } from '../../testing/test-utils';
import {
  UNIT_ID_EMPTY_MESSAGE,
  UNIT_ID_TOO_LONG_MESSAGE,
} from '../../ab-test-kit/components/unit-assignment-box';

// The pages are lazy chunks and the worker's stand-in imports the config domain.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

const LIVE = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      button_size: small
      theme: light
  - id: ios-app
    name: Shop for iOS
    platform: ios
ab_tests:
  - id: bigger-button
    app: checkout
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: "2026-11-20T10:00:00.000Z"
  - id: dark-theme
    app: checkout
    status: running
    variants:
      - id: light
        weight: 10
      - id: dark
        weight: 90
        settings:
          theme: dark
    started_at: "2026-11-20T10:00:00.000Z"
  - id: old-copy
    app: checkout
    status: ended
    variants:
      - id: a
        weight: 50
      - id: b
        weight: 50
    started_at: "2026-11-01T10:00:00.000Z"
    ended_at: "2026-11-10T10:00:00.000Z"
`;

const DRAFT_TEST = `  - id: dark-mode
    app: ios-app
    status: draft
    variants:
      - id: control
        weight: 30
      - id: dark
        weight: 70
        settings:
          theme: dark
`;

function open(path: string) {
  const server = new ConfigServer({ liveYaml: LIVE });
  server.add({ id: 'cfg_d', label: 'Dark mode draft', yaml: LIVE + DRAFT_TEST });
  connectForTest();
  http.use(...server.handlers);
  return { server, user: userEvent.setup(), ...renderRoutes(routes, { path }) };
}

async function show(user: ReturnType<typeof userEvent.setup>, unit: string) {
  const box = await screen.findByRole('region', { name: 'What does a unit get?' });
  const field = within(box).getByLabelText('Unit id');
  await user.clear(field);
  if (unit !== '') {
    // Typing 200 characters one by one is slow: paste them.
    await user.click(field);
    await user.paste(unit);
  }
  await user.click(within(box).getByRole('button', { name: 'Show' }));
  return box;
}

function liveView(appId: string) {
  const data = configData(parseConfig(LIVE));
  if (!data.ok) throw new Error('the test config does not parse');
  const view = deliveryViewOf(data.data, appId, {
    id: 'x',
    revision: 1,
    published_at: '2026-11-22T10:00:00.000Z',
  });
  if (!view) throw new Error(`no app ${appId}`);
  return view;
}

describe('what a unit gets, on a test page', () => {
  it('names the variant the assignment module gives, for a fixed vector', async () => {
    // user-1 falls in bucket 2051 (control: 0–4999), user-2 in 9670 (big: 5000–9999).
    expect(bucketOf('bigger-button', 'user-1')).toBe(2051);
    expect(bucketOf('bigger-button', 'user-2')).toBe(9670);
    const { user } = open('/ab-tests/live/bigger-button');

    let box = await show(user, 'user-1');
    expect((await within(box).findByText(/gets the variant/)).textContent).toBe(
      'In bigger-button, user-1 gets the variant control.',
    );
    box = await show(user, 'user-2');
    expect((await within(box).findByText(/gets the variant/)).textContent).toBe(
      'In bigger-button, user-2 gets the variant big.',
    );
  });

  it('lists every running test and the settings laid over the app, as assign() does', async () => {
    const { user } = open('/ab-tests/live/bigger-button');
    const box = await show(user, 'user-2');
    const expected = assign(liveView('checkout'), 'user-2');
    const variants = await within(box).findByRole('table', { name: 'Variants of user-2' });
    const rows = within(variants)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual(expected.tests.map((test) => [test.id, test.variant]));
    // The ended test assigns nobody, so it is not listed.
    expect(variants.textContent).not.toContain('old-copy');

    const settings = within(box).getByRole('table', { name: 'Settings of user-2' });
    const shown = within(settings)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(shown).toEqual(
      Object.entries(expected.settings).map(([name, value]) => [name, JSON.stringify(value)]),
    );
    expect(expected.settings.button_size).toBe('large');
  });

  it('says a test that is not running assigns nobody', async () => {
    const { user } = open('/ab-tests/live/old-copy');
    const box = await show(user, 'user-1');
    expect((await within(box).findByText(/assigns nobody/)).textContent).toBe(
      'old-copy is not running: it assigns nobody.',
    );
  });

  it("answers for a draft's test from the live config, where its app runs no test", async () => {
    const { user } = open('/ab-tests/cfg_d/dark-mode');
    const box = await show(user, 'user-1');
    expect(await within(box).findByText(/assigns nobody/)).toBeTruthy();
    expect(within(box).getByText(/No test of Shop for iOS is running/)).toBeTruthy();
  });

  it('asks for a unit id, and at most 200 characters of it', async () => {
    const { user } = open('/ab-tests/live/bigger-button');
    let box = await show(user, '');
    expect(await within(box).findByText(UNIT_ID_EMPTY_MESSAGE)).toBeTruthy();
    expect(within(box).getByLabelText('Unit id').getAttribute('aria-invalid')).toBe('true');
    expect(within(box).queryByRole('table')).toBeNull();

    box = await show(user, 'u'.repeat(MAX_UNIT_ID_LENGTH + 1));
    expect(await within(box).findByText(UNIT_ID_TOO_LONG_MESSAGE)).toBeTruthy();
    expect(within(box).queryByRole('table')).toBeNull();

    const longest = 'u'.repeat(MAX_UNIT_ID_LENGTH);
    box = await show(user, longest);
    expect(await within(box).findByRole('table', { name: `Variants of ${longest}` })).toBeTruthy();
    expect(within(box).queryByText(UNIT_ID_TOO_LONG_MESSAGE)).toBeNull();
  });
});
