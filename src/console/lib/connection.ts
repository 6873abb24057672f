/**
 * The connection: which API the console talks to and how it proves who it is. On this
 * origin that is the session cookie (HttpOnly: the console never sees it); against a server
 * without sessions, or another origin, an API key held in memory for this tab only. Nothing
 * of it is kept in browser storage. One store, read by React through useSyncExternalStore
 * and by the API client directly.
 */
import { useSyncExternalStore } from 'react';
import { CONNECT_ORIGINS_META } from '../../contract/connect-origins';
import { API_BASE_PATH } from '../../contract/endpoint-kit';

export interface Connection {
  readonly baseUrl: string;
  /** A key held in memory (a server without sessions); null: the session cookie. */
  readonly apiKey: string | null;
}

/** What the key or session failed with when a request answered 401. */
export type AuthFailure = 'revoked' | 'expired' | 'invalid';

/** Why the console is signed out. */
export type SignOutReason =
  | { readonly kind: 'unauthorized'; readonly failure: AuthFailure }
  /** The browser's session cookie had ended before this page could use it. */
  | { readonly kind: 'session-ended'; readonly failure: AuthFailure }
  | { readonly kind: 'revoked-own-key' }
  /** The person signed out; `idpLogoutUrl` ends the identity provider's session too. */
  | { readonly kind: 'signed-out'; readonly idpLogoutUrl?: string; readonly idpName?: string };

export interface ConnectionState {
  /** null: signed out. */
  readonly connection: Connection | null;
  /**
   * A status answered for this connection: a 401 now means the session ended under the
   * person (sign in again in place), not that they never were signed in.
   */
  readonly confirmed: boolean;
  /** Who is signed in (their user id, else email), to tell whether the same person is back. */
  readonly person: string | null;
  /** The session ended while signed in: requests wait until the person signs in again. */
  readonly interrupted: AuthFailure | null;
  readonly signOutReason: SignOutReason | null;
}

type StorageLike = Pick<Storage, 'removeItem'>;

export interface ConnectionStorages {
  readonly session: StorageLike | null;
  readonly local: StorageLike | null;
}

/** Where earlier versions kept the key; removed on every start. */
export const CONNECTION_STORAGE_KEY = 'provisioning-console.connection';

/** This origin's API: the default base URL. */
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

/** Whether the API at `baseUrl` is this page's origin, where the session cookie works. */
export function isSameOrigin(baseUrl: string): boolean {
  return originOf(baseUrl) === window.location.origin;
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

/** A key an earlier version left in storage is deleted: the session cookie replaces it. */
export function forgetStoredKeys(storages: ConnectionStorages): void {
  for (const storage of [storages.session, storages.local]) {
    try {
      storage?.removeItem(CONNECTION_STORAGE_KEY);
    } catch {
      // Storage that cannot be written holds nothing we could remove.
    }
  }
}

/** The request waiting for the person to sign in again was given up (they signed out). */
export class SignedOutError extends Error {
  override readonly name = 'SignedOutError';
  constructor() {
    super('Signed out while the request waited for the session to be renewed.');
  }
}

export interface ConnectionStore {
  getSnapshot(): ConnectionState;
  subscribe(listener: () => void): () => void;
  /** Signed in (a status answered): `person` names who. */
  signIn(connection: Connection, person: string | null): void;
  /** The connection's status answered: it works, and this is who it is. */
  confirm(connection: Connection, person: string | null): void;
  /** The session ended under a signed-in person: ask them to sign in again in place. */
  interrupt(failure: AuthFailure): void;
  /** The same person signed in again: the waiting requests go on. */
  resume(): void;
  /** Resolves once the person is back; rejects with SignedOutError if they sign out. */
  whenResumed(signal?: AbortSignal): Promise<void>;
  /** Forgets the connection; `reason` says why. */
  signOut(reason?: SignOutReason): void;
  /** The reason has been read (the person tries again). */
  dismissSignOutReason(): void;
}

export function createConnectionStore(
  storages: ConnectionStorages,
  initial: Connection | null = null,
): ConnectionStore {
  forgetStoredKeys(storages);
  const listeners = new Set<() => void>();
  const waiters = new Set<{ resolve: () => void; reject: (error: unknown) => void }>();
  let state: ConnectionState = {
    connection: initial,
    confirmed: false,
    person: null,
    interrupted: null,
    signOutReason: null,
  };

  function set(next: ConnectionState): void {
    state = next;
    for (const listener of listeners) listener();
  }

  function settleWaiters(error?: unknown): void {
    const all = [...waiters];
    waiters.clear();
    for (const waiter of all) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn(connection, person) {
      set({
        connection: { baseUrl: normalizeBaseUrl(connection.baseUrl), apiKey: connection.apiKey },
        confirmed: true,
        person,
        interrupted: null,
        signOutReason: null,
      });
      settleWaiters();
    },
    confirm(connection, person) {
      if (state.connection !== connection) return;
      if (state.confirmed && state.person === person) return;
      set({ ...state, confirmed: true, person: state.person ?? person });
    },
    interrupt(failure) {
      if (state.connection === null || state.interrupted === failure) return;
      set({ ...state, interrupted: failure });
    },
    resume() {
      if (state.interrupted !== null) set({ ...state, interrupted: null });
      settleWaiters();
    },
    whenResumed(signal) {
      if (state.interrupted === null) {
        return state.connection === null ? Promise.reject(new SignedOutError()) : Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject: (error: unknown) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        const onAbort = () => {
          waiters.delete(waiter);
          reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.add(waiter);
      });
    },
    signOut(reason) {
      set({
        connection: null,
        confirmed: false,
        person: null,
        interrupted: null,
        signOutReason: reason ?? null,
      });
      settleWaiters(new SignedOutError());
    },
    dismissSignOutReason() {
      if (state.signOutReason !== null) set({ ...state, signOutReason: null });
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

/**
 * On load the console does not know whether the browser holds a session cookie (it cannot
 * read it): it starts with this origin's API and asks GET /auth/status, whose 401 signs out.
 */
export const connectionStore = createConnectionStore(
  { session: browserStorage('sessionStorage'), local: browserStorage('localStorage') },
  typeof window === 'undefined' ? null : { baseUrl: defaultBaseUrl(), apiKey: null },
);

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(connectionStore.subscribe, connectionStore.getSnapshot);
}

export function useConnection(): Connection | null {
  return useConnectionState().connection;
}

/** The router's address of the sign-in page, coming back to `returnTo` afterwards. */
export function signInPath(returnTo: string): string {
  return returnTo === '/' || returnTo.startsWith('/sign-in')
    ? '/sign-in'
    : `/sign-in?${new URLSearchParams({ return_to: returnTo }).toString()}`;
}
