import { afterEach, describe, expect, it } from 'vitest';
import { CONNECT_ORIGINS_META } from '../../contract/connect-origins';
import {
  allowedApiOrigins,
  CONNECTION_STORAGE_KEY,
  createConnectionStore,
  normalizeBaseUrl,
} from './connection';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

function storages() {
  return { session: memoryStorage(), local: memoryStorage() };
}

const candidate = { baseUrl: 'https://example.com/api/v1/', apiKey: 'sk_abc' };

describe('the connection store', () => {
  it('keeps the key in sessionStorage when not remembered', () => {
    const { session, local } = storages();
    const store = createConnectionStore({ session, local });
    store.connect(candidate, false);
    expect(session.items.has(CONNECTION_STORAGE_KEY)).toBe(true);
    expect(local.items.size).toBe(0);
    expect(store.getSnapshot().connection).toEqual({
      baseUrl: 'https://example.com/api/v1',
      apiKey: 'sk_abc',
      remembered: false,
    });
  });

  it('keeps the key in localStorage when remembered, and only there', () => {
    const { session, local } = storages();
    const store = createConnectionStore({ session, local });
    store.connect(candidate, false);
    store.connect(candidate, true);
    expect(local.items.has(CONNECTION_STORAGE_KEY)).toBe(true);
    expect(session.items.size).toBe(0);
    expect(store.getSnapshot().connection?.remembered).toBe(true);
  });

  it('reads a stored connection back on start (a reload), session first', () => {
    const { session, local } = storages();
    createConnectionStore({ session, local }).connect(candidate, true);
    const reloaded = createConnectionStore({ session, local });
    expect(reloaded.getSnapshot().connection).toEqual({
      baseUrl: 'https://example.com/api/v1',
      apiKey: 'sk_abc',
      remembered: true,
    });
    session.setItem(
      CONNECTION_STORAGE_KEY,
      JSON.stringify({ baseUrl: 'https://other.example/api/v1', apiKey: 'sk_tab' }),
    );
    expect(createConnectionStore({ session, local }).getSnapshot().connection?.apiKey).toBe(
      'sk_tab',
    );
  });

  it('signs out by clearing both storages, with the reason when one is given', () => {
    const { session, local } = storages();
    const store = createConnectionStore({ session, local });
    store.connect(candidate, true);
    session.setItem(CONNECTION_STORAGE_KEY, JSON.stringify(candidate));
    store.signOut({ kind: 'unauthorized', failure: 'revoked' });
    expect(session.items.size).toBe(0);
    expect(local.items.size).toBe(0);
    expect(store.getSnapshot()).toEqual({
      connection: null,
      signOutReason: { kind: 'unauthorized', failure: 'revoked' },
    });
    store.dismissSignOutReason();
    expect(store.getSnapshot().signOutReason).toBeNull();
  });

  it('ignores a damaged entry and storage that throws', () => {
    const { session, local } = storages();
    session.setItem(CONNECTION_STORAGE_KEY, '{not json');
    local.setItem(CONNECTION_STORAGE_KEY, JSON.stringify({ baseUrl: 'x' }));
    expect(createConnectionStore({ session, local }).getSnapshot().connection).toBeNull();

    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = createConnectionStore({ session: throwing, local: throwing });
    expect(store.getSnapshot().connection).toBeNull();
    store.connect(candidate, false);
    expect(store.getSnapshot().connection?.apiKey).toBe('sk_abc');
    store.signOut();
    expect(store.getSnapshot().connection).toBeNull();
  });

  it('tells subscribers about every change', () => {
    const store = createConnectionStore(storages());
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.connect(candidate, false);
    store.signOut();
    unsubscribe();
    store.connect(candidate, false);
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
