/**
 * The connection: the API base URL and key the console talks with. It lives in
 * sessionStorage (gone with the tab) or, when remembered, in localStorage; never in a URL.
 * One store, read by React through useSyncExternalStore and by the API client directly.
 */
import { useSyncExternalStore } from 'react';
import { z } from '../../contract/zod';
import { CONNECT_ORIGINS_META } from '../../contract/connect-origins';
import { API_BASE_PATH } from '../../contract/endpoints';

export interface Connection {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** True when kept in localStorage ("Remember on this device"). */
  readonly remembered: boolean;
}

/** What the key failed with when a request answered 401. */
export type AuthFailure = 'revoked' | 'expired' | 'invalid';

/** Why the connection was dropped without the person signing out. */
export type SignOutReason =
  | { readonly kind: 'unauthorized'; readonly failure: AuthFailure }
  | { readonly kind: 'revoked-own-key' };

export interface ConnectionState {
  readonly connection: Connection | null;
  readonly signOutReason: SignOutReason | null;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface ConnectionStorages {
  readonly session: StorageLike | null;
  readonly local: StorageLike | null;
}

export const CONNECTION_STORAGE_KEY = 'provisioning-console.connection';

const storedConnectionSchema = z.object({
  baseUrl: z.string().check(z.minLength(1)),
  apiKey: z.string().check(z.minLength(1)),
});

/** This origin's API: the default base URL of the settings form. */
export function defaultBaseUrl(): string {
  return `${window.location.origin}${API_BASE_PATH}`;
}

/** The origin of an http(s) URL, or undefined when `text` is none. */
export function originOf(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origins whose APIs this console may call: its own, then those its server names in
 * the page (the same ones its Content-Security-Policy allows). Any other is blocked by the
 * browser before a request leaves.
 */
export function allowedApiOrigins(page: Document = document): readonly string[] {
  const own = window.location.origin;
  const named = page.querySelector<HTMLMetaElement>(`meta[name="${CONNECT_ORIGINS_META}"]`);
  const others = (named?.content ?? '')
    .split(/\s+/)
    .filter((origin) => origin !== '' && originOf(origin) === origin && origin !== own);
  return [own, ...new Set(others)];
}

/** Trims and drops trailing slashes, so that paths can be appended. */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function readFrom(storage: StorageLike | null, remembered: boolean): Connection | null {
  if (!storage) return null;
  try {
    const text = storage.getItem(CONNECTION_STORAGE_KEY);
    if (text === null) return null;
    const parsed = storedConnectionSchema.safeParse(JSON.parse(text));
    return parsed.success ? { ...parsed.data, remembered } : null;
  } catch {
    // Unreadable storage or a damaged entry: not connected.
    return null;
  }
}

function removeFrom(storage: StorageLike | null): void {
  try {
    storage?.removeItem(CONNECTION_STORAGE_KEY);
  } catch {
    // Storage that cannot be written holds nothing of ours.
  }
}

export interface ConnectionStore {
  getSnapshot(): ConnectionState;
  subscribe(listener: () => void): () => void;
  /** Stores a connection that was checked with GET /auth/status; clears the other storage. */
  connect(candidate: { baseUrl: string; apiKey: string }, remember: boolean): void;
  /** Forgets the key in both storages; `reason` says why when the person did not ask. */
  signOut(reason?: SignOutReason): void;
  /** The reason has been read (the person tries again). */
  dismissSignOutReason(): void;
  /** Reads the storages again (another tab changed them). */
  reload(): void;
}

export function createConnectionStore(storages: ConnectionStorages): ConnectionStore {
  const listeners = new Set<() => void>();
  const read = () => readFrom(storages.session, false) ?? readFrom(storages.local, true);
  let state: ConnectionState = { connection: read(), signOutReason: null };

  function set(next: ConnectionState): void {
    state = next;
    for (const listener of listeners) listener();
  }

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect(candidate, remember) {
      const connection: Connection = {
        baseUrl: normalizeBaseUrl(candidate.baseUrl),
        apiKey: candidate.apiKey,
        remembered: remember,
      };
      const [keep, drop] = remember
        ? [storages.local, storages.session]
        : [storages.session, storages.local];
      removeFrom(drop);
      try {
        keep?.setItem(
          CONNECTION_STORAGE_KEY,
          JSON.stringify({ baseUrl: connection.baseUrl, apiKey: connection.apiKey }),
        );
      } catch {
        // Storage full or refused: the connection still holds for this page.
      }
      set({ connection, signOutReason: null });
    },
    signOut(reason) {
      removeFrom(storages.session);
      removeFrom(storages.local);
      set({ connection: null, signOutReason: reason ?? null });
    },
    dismissSignOutReason() {
      if (state.signOutReason !== null) set({ ...state, signOutReason: null });
    },
    reload() {
      const connection = read();
      const current = state.connection;
      if (connection?.apiKey === current?.apiKey && connection?.baseUrl === current?.baseUrl) {
        return;
      }
      set({ connection, signOutReason: null });
    },
  };
}

function browserStorage(name: 'sessionStorage' | 'localStorage'): StorageLike | null {
  try {
    return typeof window === 'undefined' ? null : window[name];
  } catch {
    // Some browsers throw on access when storage is disabled.
    return null;
  }
}

export const connectionStore = createConnectionStore({
  session: browserStorage('sessionStorage'),
  local: browserStorage('localStorage'),
});

if (typeof window !== 'undefined') {
  // Signing out (or in) in another tab changes localStorage: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key === CONNECTION_STORAGE_KEY || event.key === null) connectionStore.reload();
  });
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(connectionStore.subscribe, connectionStore.getSnapshot);
}

export function useConnection(): Connection | null {
  return useConnectionState().connection;
}

/** Router state of the redirect that sends a person without a key to the settings. */
export const NOT_CONNECTED_STATE = { notConnected: true } as const;

export function wasSentForConnection(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    'notConnected' in state &&
    state.notConnected === true
  );
}
