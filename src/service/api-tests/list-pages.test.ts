/**
 * Every list of the API in pages (docs/api.md, Pages): each one read two at a time gives what
 * one big page gives, in its order, with no Link on its last page; items added between pages
 * repeat none read before; another list's cursor is a 400 naming `cursor`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cursorOfPageUrl, nextPageUrlOf } from '../../contract/page-links';
import {
  CREATE_APP,
  editOk,
  errorPaths,
  expectProblem,
  expectSuccess,
  manualClock,
  ok,
  send,
  SHOP_YAML,
  type CallInput,
} from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let clock: ReturnType<typeof manualClock>;
let service: TestService;
let admin: string;

beforeEach(async () => {
  clock = manualClock('2026-11-22T10:00:00.000Z');
  service = await startTestService({ clock: clock.clock, initialYaml: SHOP_YAML });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

type ListName =
  | 'listConfigs'
  | 'getConfigHistory'
  | 'listReviews'
  | 'listClientKeys'
  | 'listWebhooks'
  | 'listWebhookDeliveries';

/** One list: how five items are made, how one more is added, and the field it is sorted by. */
interface ListCase {
  readonly name: ListName;
  setUp(): Promise<CallInput>;
  add(input: CallInput): Promise<void>;
  readonly order: { readonly field: string; readonly direction: 'newest' | 'oldest' };
}

let made = 0;
async function newDraft(label = `draft ${made++}`): Promise<string> {
  clock.advance(1_000);
  return (
    await editOk(service, admin, { operations: [CREATE_APP(`app-${made++}`)], summary: label })
  ).id;
}
async function editDraft(id: string): Promise<void> {
  clock.advance(1_000);
  await editOk(service, admin, {
    operations: [CREATE_APP(`app-${made++}`)],
    config_id: id,
    summary: 'more',
  });
}
async function comment(id: string): Promise<void> {
  clock.advance(1_000);
  const response = await send(service, admin, 'addReview', {
    params: { id },
    payload: { verdict: 'comment', body: `note ${made++}` },
  });
  expectSuccess('addReview', response, 201);
}
async function clientKey(): Promise<void> {
  clock.advance(1_000);
  await ok(service, admin, 'createClientKey', { payload: { name: `app ${made++}` } });
}
async function webhook(): Promise<string> {
  clock.advance(1_000);
  const url = `https://hooks.example.com/${made++}`;
  return (
    await ok(service, admin, 'createWebhook', { payload: { url, events: ['config.published'] } })
  ).id;
}
async function testDelivery(id: string): Promise<void> {
  clock.advance(1_000);
  await ok(service, admin, 'sendTestWebhook', { params: { id } });
}
async function times(count: number, make: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < count; i++) await make();
}

const LISTS: readonly ListCase[] = [
  {
    name: 'listConfigs',
    setUp: async () => (await times(5, () => newDraft()), {}),
    add: async () => void (await newDraft()),
    order: { field: 'created_at', direction: 'newest' },
  },
  {
    name: 'getConfigHistory',
    setUp: async () => {
      const id = await newDraft();
      await times(4, () => editDraft(id));
      return { params: { id } };
    },
    add: (input) => editDraft(input.params?.id ?? ''),
    order: { field: 'at', direction: 'newest' },
  },
  {
    name: 'listReviews',
    setUp: async () => {
      const id = await newDraft();
      await times(5, () => comment(id));
      return { params: { id } };
    },
    add: (input) => comment(input.params?.id ?? ''),
    order: { field: 'at', direction: 'oldest' },
  },
  {
    name: 'listClientKeys',
    setUp: async () => (await times(5, clientKey), {}),
    add: clientKey,
    order: { field: 'created_at', direction: 'newest' },
  },
  {
    name: 'listWebhooks',
    setUp: async () => (await times(5, webhook), {}),
    add: async () => void (await webhook()),
    order: { field: 'created_at', direction: 'newest' },
  },
  {
    name: 'listWebhookDeliveries',
    setUp: async () => {
      const id = await webhook();
      await times(5, () => testDelivery(id));
      return { params: { id } };
    },
    add: (input) => testDelivery(input.params?.id ?? ''),
    order: { field: 'created_at', direction: 'newest' },
  },
];

/** The list read `limit` at a time, `between` after each page; the items as JSON, in order. */
async function readPages(
  name: ListName,
  input: CallInput,
  limit: number,
  between?: () => Promise<void>,
): Promise<{ items: string[]; pages: number }> {
  const items: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const query = { ...input.query, limit: String(limit), ...(cursor ? { cursor } : {}) };
    const response = await send(service, admin, name, { ...input, query });
    const page = expectSuccess(name, response) as unknown[];
    expect(page.length).toBeLessThanOrEqual(limit);
    items.push(...page.map((item) => JSON.stringify(item)));
    const next = nextPageUrlOf(response.headers.link as string | undefined);
    if (next !== undefined) expect(page).toHaveLength(limit);
    cursor = next === undefined ? undefined : cursorOfPageUrl(next);
    pages++;
    await between?.();
  } while (cursor !== undefined);
  return { items, pages };
}

function fieldOf(item: string, field: string): string {
  return (JSON.parse(item) as Record<string, string>)[field] ?? '';
}

describe.each(LISTS)('$name in pages', (list) => {
  it('reads two at a time what one page holds, in order, and stops where Link does', async () => {
    const input = await list.setUp();
    const whole = await readPages(list.name, input, 200);
    expect(whole.pages).toBe(1);
    expect(whole.items.length).toBeGreaterThanOrEqual(5);
    const sorted = whole.items.map((item) => fieldOf(item, list.order.field));
    const expected = [...sorted].sort();
    expect(sorted).toEqual(list.order.direction === 'oldest' ? expected : expected.reverse());

    const paged = await readPages(list.name, input, 2);
    expect(paged.items).toEqual(whole.items);
    expect(paged.pages).toBe(Math.ceil(whole.items.length / 2));
  });

  it('repeats and skips nothing when items are added between pages', async () => {
    const input = await list.setUp();
    const before = (await readPages(list.name, input, 200)).items;
    const during = (await readPages(list.name, input, 2, () => list.add(input))).items;
    expect(new Set(during).size).toBe(during.length);
    // Newest-first lists show what came later on a first page; oldest-first ones at the end.
    expect(during.slice(0, before.length)).toEqual(before);
    if (list.order.direction === 'newest') expect(during).toEqual(before);
  });

  it("refuses another list's cursor and one that is not a cursor, naming cursor", async () => {
    const input = await list.setUp();
    await ok(service, admin, 'createApiKey', { payload: { name: 'second' } });
    const keys = await send(service, admin, 'listApiKeys', { query: { limit: '1' } });
    const foreign = cursorOfPageUrl(nextPageUrlOf(keys.headers.link as string) ?? '');
    for (const cursor of [foreign ?? '', '!!!', Buffer.from('[1]').toString('base64url')]) {
      const response = await send(service, admin, list.name, { ...input, query: { cursor } });
      expect(errorPaths(expectProblem(response, 400, 'invalid_request'))).toContain('/cursor');
    }
  });
});

describe('the config list’s filters', () => {
  async function labels(key: string, query: Record<string, string>): Promise<string[]> {
    return (await ok(service, key, 'listConfigs', { query })).map((config) => config.label);
  }

  it('filters by kind, and searches labels ignoring case, % and _ taken as they are', async () => {
    for (const label of ['Spring SALE', 'spring sale 2', '100% off', '100 off', 'a_b', 'axb']) {
      await newDraft(label);
    }
    expect(await labels(admin, { kind: 'published' })).toEqual(['Initial config']);
    expect(await labels(admin, { q: 'Spring Sale' })).toEqual(['spring sale 2', 'Spring SALE']);
    expect(await labels(admin, { q: '%' })).toEqual(['100% off']);
    expect(await labels(admin, { q: '0% o' })).toEqual(['100% off']);
    expect(await labels(admin, { q: '_' })).toEqual(['a_b']);
    expect(await labels(admin, { q: 'spring', kind: 'published' })).toEqual([]);
    expect(await labels(admin, { q: 'SALE', kind: 'draft', limit: '1' })).toEqual([
      'spring sale 2',
    ]);
  });

  it('searches three characters or more past newer configs (the trigram index) alike', async () => {
    const made = ['50%_off', '50% off', '50%xoff', '500_off', 'SPRING Sale', 'spring-sale'];
    for (const label of made) await newDraft(label);
    // A page of one reads 20 configs in order, then asks the index: these are newer.
    for (let n = 0; n < 20; n++) await newDraft(`newer ${n}`);
    const first = (q: string, more: Record<string, string> = {}) =>
      labels(admin, { q, limit: '1', ...more });
    // Taken as wildcards, % and _ would match other "…off" labels here.
    expect(await first('0%_o')).toEqual(['50%_off']);
    expect(await first('%_o')).toEqual(['50%_off']);
    expect(await first('0_o')).toEqual(['500_off']);
    expect(await first('0% ')).toEqual(['50% off']);
    expect(await first('%xo')).toEqual(['50%xoff']);
    expect(await first('spring SALE')).toEqual(['SPRING Sale']);
    expect(await first('Ng-S')).toEqual(['spring-sale']);
    expect(await first('OFF')).toEqual(['500_off']);
    expect(await first('off', { kind: 'published' })).toEqual([]);
    expect(await first('"off')).toEqual([]);
    // Pages of one (the first through the index) give what one page gives, in order.
    const input = { query: { q: 'off' } };
    const whole = await readPages('listConfigs', input, 200);
    const single = await readPages('listConfigs', input, 1);
    expect(whole.items.map((item) => fieldOf(item, 'label'))).toEqual([
      '500_off',
      '50%xoff',
      '50% off',
      '50%_off',
    ]);
    expect(single.items).toEqual(whole.items);
  });

  it('searches one and two characters, which no trigram holds, alike', async () => {
    for (const label of ['Ab', 'xaBy', 'a', 'b', '%', 'Q_']) await newDraft(label);
    expect(await labels(admin, { q: 'ab' })).toEqual(['xaBy', 'Ab']);
    expect(await labels(admin, { q: 'A' })).toEqual(['a', 'xaBy', 'Ab', 'Initial config']);
    expect(await labels(admin, { q: 'q_' })).toEqual(['Q_']);
    expect(await labels(admin, { q: '%' })).toEqual(['%']);
    expect(await labels(admin, { q: 'Y', limit: '1' })).toEqual(['xaBy']);
  });

  it('refuses a search longer than 200 characters and an unknown review state', async () => {
    const queries: Record<string, string>[] = [
      { q: 'x'.repeat(201) },
      { q: '' },
      { review: 'maybe' },
    ];
    for (const query of queries) {
      const response = await send(service, admin, 'listConfigs', { query });
      const path = `/${Object.keys(query)[0] ?? ''}`;
      expect(errorPaths(expectProblem(response, 400, 'invalid_request'))).toContain(path);
    }
  });

  it('filters by review state, and waiting_for_me is what the caller may still approve', async () => {
    await ok(service, admin, 'setAccountPolicy', {
      payload: { approvals_required: 2, reset_approvals_on_edit: true },
    });
    const reviewer = await service.keyFor('admin');
    const second = await service.keyFor('admin');
    const editor = await service.keyFor('editor');
    const request = async (key: string, id: string) => {
      clock.advance(1_000);
      await ok(service, key, 'requestReview', { params: { id } });
    };
    const verdict = async (key: string, id: string, kind: 'approve' | 'request_changes') => {
      clock.advance(1_000);
      const response = await send(service, key, 'addReview', {
        params: { id },
        payload: { verdict: kind, ...(kind === 'request_changes' ? { body: 'no' } : {}) },
      });
      expectSuccess('addReview', response, 201);
    };
    await newDraft('quiet');
    const asked = await newDraft('asked');
    await request(admin, asked);
    const once = await newDraft('approved once');
    await request(admin, once);
    await verdict(reviewer, once, 'approve');
    const twice = await newDraft('approved twice');
    await request(admin, twice);
    await verdict(reviewer, twice, 'approve');
    await verdict(second, twice, 'approve');
    const refused = await newDraft('changes asked');
    await request(admin, refused);
    await verdict(second, refused, 'request_changes');
    clock.advance(1_000);
    const theirs = (
      await editOk(service, reviewer, { operations: [CREATE_APP('theirs')], summary: 'theirs' })
    ).id;
    await request(reviewer, theirs);

    expect(await labels(admin, { review: 'none' })).toEqual(['quiet', 'Initial config']);
    expect(await labels(admin, { review: 'in_review' })).toEqual([
      'theirs',
      'approved once',
      'asked',
    ]);
    expect(await labels(admin, { review: 'approved' })).toEqual(['approved twice']);
    expect(await labels(admin, { review: 'changes_requested' })).toEqual(['changes asked']);
    expect(await labels(admin, { review: 'in_review', kind: 'published' })).toEqual([]);

    // The reviewer approved one and wrote another; the second did neither; the author wrote
    // the rest; an editor may not approve at all.
    expect(await labels(reviewer, { review: 'waiting_for_me' })).toEqual(['asked']);
    expect(await labels(second, { review: 'waiting_for_me' })).toEqual([
      'theirs',
      'approved once',
      'asked',
    ]);
    expect(await labels(admin, { review: 'waiting_for_me' })).toEqual(['theirs']);
    expect(await labels(editor, { review: 'waiting_for_me' })).toEqual([]);

    // An edit resets approvals: the reviewer's approval of the old revision no longer counts.
    await editDraft(once);
    expect(await labels(reviewer, { review: 'waiting_for_me' })).toEqual([
      'approved once',
      'asked',
    ]);
    // Without the reset, it counts again.
    await ok(service, admin, 'setAccountPolicy', {
      payload: { approvals_required: 2, reset_approvals_on_edit: false },
    });
    expect(await labels(reviewer, { review: 'waiting_for_me' })).toEqual(['asked']);
    expect(await labels(second, { review: 'waiting_for_me', limit: '1' })).toEqual(['theirs']);
  });

  it('answers from the summary columns alone: the text and issues are never read', async () => {
    await newDraft('one');
    await newDraft('two');
    const before = await ok(service, admin, 'listConfigs');
    const changed = await service.rows(
      'UPDATE configs SET yaml = ?, issues = ? RETURNING id',
      'not: [yaml',
      'not json',
    );
    expect(changed).toHaveLength(3);
    expect(await ok(service, admin, 'listConfigs')).toEqual(before);
    expect(await ok(service, admin, 'listConfigs', { query: { q: 'one' } })).toEqual([before[1]]);
  });
});
