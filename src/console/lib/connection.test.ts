import { afterEach, describe, expect, it } from 'vitest';
import { CONNECT_ORIGINS_META } from '../../contract/connect-origins';
import {
  allowedApiOrigins,
  CONNECTION_STORAGE_KEY,
  createConnectionStore,
  normalizeBaseUrl,
  SignedOutError,
} from './connection';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

function storages() {
  return { session: memoryStorage(), local: memoryStorage() };
}

const session = { baseUrl: 'https://example.com/api/v1/', apiKey: null };

describe('the connection store', () => {
  it('deletes a key an earlier version left in either storage, on start', () => {
    const stored = storages();
    const old = JSON.stringify({ baseUrl: 'https://example.com/api/v1', apiKey: 'sk_old' });
    stored.session.setItem(CONNECTION_STORAGE_KEY, old);
    stored.local.setItem(CONNECTION_STORAGE_KEY, old);
    stored.local.setItem('other-setting', 'kept');
    const store = createConnectionStore(stored);
    expect(stored.session.items.size).toBe(0);
    expect([...stored.local.items.keys()]).toEqual(['other-setting']);
    expect(store.getSnapshot().connection).toBeNull();
  });

  it('keeps nothing in storage when signing in, with a key or a session', () => {
    const stored = storages();
    const store = createConnectionStore(stored);
    store.signIn({ baseUrl: 'https://other.example/api/v1', apiKey: 'sk_abc' }, 'usr_1');
    expect(store.getSnapshot()).toMatchObject({
      connection: { baseUrl: 'https://other.example/api/v1', apiKey: 'sk_abc' },
      confirmed: true,
      person: 'usr_1',
    });
    store.signIn(session, 'usr_1');
    expect(store.getSnapshot().connection).toEqual({
      baseUrl: 'https://example.com/api/v1',
      apiKey: null,
    });
    expect(stored.session.items.size + stored.local.items.size).toBe(0);
  });

  it('survives storage that throws', () => {
    const throwing = {
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = createConnectionStore({ session: throwing, local: throwing });
    store.signIn(session, null);
    expect(store.getSnapshot().connection?.apiKey).toBeNull();
  });

  it('starts unconfirmed on the given connection, and a status confirms it', () => {
    const start = { baseUrl: 'https://example.com/api/v1', apiKey: null };
    const store = createConnectionStore(storages(), start);
    expect(store.getSnapshot()).toMatchObject({ connection: start, confirmed: false });
    store.confirm(start, 'usr_1');
    expect(store.getSnapshot()).toMatchObject({ confirmed: true, person: 'usr_1' });
  });

  it('holds requests while interrupted, and lets them go when the person is back', async () => {
    const store = createConnectionStore(storages());
    store.signIn(session, 'usr_1');
    store.interrupt('expired');
    expect(store.getSnapshot().interrupted).toBe('expired');
    let resumed = false;
    const waiting = store.whenResumed().then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    store.signIn(session, 'usr_1');
    await waiting;
    expect(resumed).toBe(true);
    expect(store.getSnapshot().interrupted).toBeNull();
  });

  it('gives up the waiting requests when the person signs out, or a request is aborted', async () => {
    const store = createConnectionStore(storages());
    store.signIn(session, 'usr_1');
    store.interrupt('revoked');
    const aborted = new AbortController();
    const waitingAborted = store.whenResumed(aborted.signal);
    aborted.abort();
    await expect(waitingAborted).rejects.toBeDefined();
    const waiting = store.whenResumed();
    store.signOut({ kind: 'unauthorized', failure: 'revoked' });
    await expect(waiting).rejects.toBeInstanceOf(SignedOutError);
    expect(store.getSnapshot()).toMatchObject({
      connection: null,
      signOutReason: { kind: 'unauthorized', failure: 'revoked' },
    });
    store.dismissSignOutReason();
    expect(store.getSnapshot().signOutReason).toBeNull();
  });

  it('tells subscribers about every change', () => {
    const store = createConnectionStore(storages());
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.signIn(session, null);
    store.signOut();
    unsubscribe();
    store.signIn(session, null);
    expect(calls).toBe(2);
  });

  it('normalizes base URLs', () => {
    expect(normalizeBaseUrl('  https://a.example/api/v1//  ')).toBe('https://a.example/api/v1');
  });
});

describe('the API origins this console may use', () => {
  afterEach(() => document.querySelector(`meta[name="${CONNECT_ORIGINS_META}"]`)?.remove());

  it('are only its own when the page names none', () => {
    expect(allowedApiOrigins()).toEqual([window.location.origin]);
  });

  it('are its own, then those the page names, once each; what is no origin is left out', () => {
    const meta = document.createElement('meta');
    meta.name = CONNECT_ORIGINS_META;
    meta.content = ` https://a.example  http://127.0.0.1:8081 https://a.example ${window.location.origin} https://b.example/path not-an-origin `;
    document.head.append(meta);
    expect(allowedApiOrigins()).toEqual([
      window.location.origin,
      'https://a.example',
      'http://127.0.0.1:8081',
    ]);
  });
});
