/**
 * Config text and long history entries are compressed at rest, on both stores (Vitest
 * projects `node` and `postgres`): a 10,000-app config's published version takes at most a
 * quarter of its text, every text comes back byte for byte, and rows written before
 * compression read as they were. Each store keeps its own memo of what it packed and
 * unpacked lately, bounded by the length of the texts it holds.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operations as ops } from '../../../contract/operations';
import { largeConfigText } from '../../../configs/testing/large-config';
import type { CreatedAccount } from '../../domain/accounts';
import { createAccount } from '../../testing/made-at';
import { openTestStore, testStoreKind, type TestStore } from '../../testing/test-store';
import type { HistoryRecord, NewConfig } from '../records';
import { packText, TextMemo, unpackText } from './stored-text';

const AT = '2026-11-22T10:00:00.000Z';
/** Scripts of several widths, a combining accent, an astral emoji and a lone quote. */
const NON_ASCII = "Grüße, こんにちは, Привет, é (e + ◌́), 🚀🧪, «»\u00a0'\n";

let database: TestStore;
let account: CreatedAccount;

beforeEach(async () => {
  database = await openTestStore();
  account = await createAccount(database.store, {
    name: 'Stored text',
    ownerEmail: 'owner@example.com',
    now: new Date(AT),
  });
});
afterEach(async () => {
  await database.dispose();
});

function published(id: string, yaml: string): Omit<NewConfig, 'account_id'> {
  return {
    id,
    kind: 'published',
    label: `Version ${id}`,
    yaml,
    revision: 1,
    base_config_id: null,
    valid: true,
    error_count: 0,
    warning_count: 0,
    issues: [],
    created_at: AT,
    updated_at: AT,
    published_at: AT,
  };
}

async function store(id: string, yaml: string): Promise<void> {
  await database.store.changeConfigs(account.account_id, {}, (tx) => {
    tx.insert(published(id, yaml));
  });
}

interface StoredRow {
  readonly yaml: string;
  readonly yaml_packed: Uint8Array | null;
}

async function storedBytes(id: string): Promise<number> {
  const [row] = await database.rows<StoredRow>(
    'SELECT yaml, yaml_packed FROM configs WHERE id = ?',
    id,
  );
  if (!row) throw new Error(`no row ${id}`);
  return Buffer.byteLength(row.yaml, 'utf8') + (row.yaml_packed?.length ?? 0);
}

describe(`config text at rest (${testStoreKind()})`, () => {
  it('keeps a 10,000-app published version in at most a quarter of its text, byte for byte', async () => {
    const text = largeConfigText(10_000);
    await store('cfg_large', text);
    expect(await storedBytes('cfg_large')).toBeLessThanOrEqual(Buffer.byteLength(text) / 4);
    const read = await database.store.getConfig(account.account_id, 'cfg_large');
    expect(read?.yaml === text).toBe(true);
  });

  it('gives back non-ASCII text byte for byte, short and long', async () => {
    const short = `# ${NON_ASCII}apps: []\n`;
    const long = `# ${NON_ASCII.repeat(200)}apps: []\n`;
    await store('cfg_short', short);
    await store('cfg_long', long);
    expect((await database.store.getConfig(account.account_id, 'cfg_short'))?.yaml).toBe(short);
    expect((await database.store.getConfig(account.account_id, 'cfg_long'))?.yaml).toBe(long);
    expect(await storedBytes('cfg_long')).toBeLessThan(Buffer.byteLength(long) / 4);
  });

  it('packs an updated draft and reads a row written before compression as it was', async () => {
    const text = `# ${NON_ASCII}${largeConfigText(100)}`;
    await database.rows(
      `INSERT INTO configs (id, account_id, kind, label, yaml, revision, base_config_id, valid, error_count, warning_count, issues, created_at, updated_at)
       VALUES ('cfg_old', ?, 'draft', 'Old', ?, 1, NULL, ${testStoreKind() === 'postgres' ? 'true' : '1'}, 0, 0, '[]', ?, ?) RETURNING id`,
      account.account_id,
      text,
      AT,
      AT,
    );
    expect((await database.store.getConfig(account.account_id, 'cfg_old'))?.yaml).toBe(text);
    const edited = `${text}# edited\n`;
    await database.store.changeConfigs(account.account_id, { ids: ['cfg_old'] }, (tx) => {
      expect(tx.get('cfg_old')?.yaml).toBe(text);
      tx.update('cfg_old', {
        yaml: edited,
        revision: 2,
        valid: true,
        error_count: 0,
        warning_count: 0,
        issues: [],
        updated_at: AT,
      });
    });
    expect(await storedBytes('cfg_old')).toBeLessThan(Buffer.byteLength(edited) / 4);
    expect((await database.store.getConfig(account.account_id, 'cfg_old'))?.yaml).toBe(edited);
  });

  it('packs a history entry that carries a whole text, and gives it back as it was', async () => {
    const text = `# ${NON_ASCII}${largeConfigText(1_000)}`;
    const entry = (revision: number, operations: HistoryRecord['operations']): HistoryRecord => ({
      config_id: account.live_config_id,
      account_id: account.account_id,
      action: 'edit',
      at: AT,
      revision,
      summary: 'é',
      api_key_id: null,
      api_key_name: null,
      actor_email: 'owner@example.com',
      operations,
      applied_paths: ['/apps'],
      text_changes: [{ offset: 0, delete_count: 0, insert: text }],
    });
    const large = entry(2, [ops.editText({ offset: 0, delete_count: 0, insert: text })]);
    const small = entry(3, [ops.editText({ offset: 0, delete_count: 1, insert: 'ü' })]);
    await database.store.changeConfigs(account.account_id, {}, (tx) => {
      tx.addHistory(large);
      tx.addHistory({ ...small, text_changes: [] });
    });
    const after = await database.store.historyAfter(account.account_id, account.live_config_id, 1);
    expect(after).toEqual([large, { ...small, text_changes: [] }]);
    const rows = await database.rows<{ operations: string; entry_packed: Uint8Array | null }>(
      'SELECT operations, entry_packed FROM history WHERE config_id = ? AND revision = 2',
      account.live_config_id,
    );
    expect(rows[0]?.operations).toBe('');
    expect(rows[0]?.entry_packed?.length).toBeLessThan(Buffer.byteLength(text) / 4);
  });
});

describe('the memo of packed text', () => {
  const text = (n: number, length: number) => `${n}:`.padEnd(length, 'x');

  it('holds at most its bound of text, forgetting the oldest first', () => {
    const memo = new TextMemo(1_000);
    const texts = [0, 1, 2, 3, 4, 5].map((n) => text(n, 200));
    for (const each of texts) expect(unpackText(memo.pack(each))).toBe(each);
    expect(memo.chars).toBe(1_000);
    expect(memo.knows(texts[0] as string)).toBe(false);
    for (const each of texts.slice(1)) expect(memo.knows(each)).toBe(true);
    // In the order they came in: a text read again is not made newer.
    expect(memo.unpack(memo.pack(texts[1] as string))).toBe(texts[1]);
    memo.pack(text(6, 200));
    expect(memo.knows(texts[1] as string)).toBe(false);
    expect(memo.knows(texts[2] as string)).toBe(true);
    expect(memo.chars).toBe(1_000);
  });

  it('never holds a text over a quarter of its bound, and remembers what it unpacks', () => {
    const memo = new TextMemo(1_000);
    const long = text(0, 251);
    expect(unpackText(memo.pack(long))).toBe(long);
    expect(memo.knows(long)).toBe(false);
    expect(memo.chars).toBe(0);
    const short = text(1, 250);
    expect(memo.unpack(packText(short))).toBe(short);
    expect(memo.knows(short)).toBe(true);
  });

  it('is one per store: what one store packs is not in another store’s memo', async () => {
    const mine = new TextMemo();
    const theirs = new TextMemo();
    const own = await openTestStore({ texts: mine });
    try {
      const other = await own.openSecondStore(theirs);
      const owner = await createAccount(own.store, {
        name: 'Two memos',
        ownerEmail: 'owner@example.com',
        now: new Date(AT),
      });
      const yaml = `# ${NON_ASCII}${largeConfigText(20)}`;
      await own.store.changeConfigs(owner.account_id, {}, (tx) => {
        tx.insert({ ...published('cfg_memo', yaml), kind: 'draft' });
      });
      expect(mine.knows(yaml)).toBe(true);
      expect(theirs.knows(yaml)).toBe(false);
      expect((await other.getConfig(owner.account_id, 'cfg_memo'))?.yaml).toBe(yaml);
      expect(theirs.knows(yaml)).toBe(true);
    } finally {
      await own.dispose();
    }
  });
});
