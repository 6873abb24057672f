/**
 * The account (environment) a tab works in is part of its address: `/a/{account_id}/configs`.
 * Two tabs in two environments never share it, and a shared link opens the same environment.
 * An address without the prefix acts on the account the caller signed in to.
 */
const PREFIX = /^\/a\/([A-Za-z0-9_-]{1,100})(?=\/|$)/;

/** The account named by an address's path, or null when it names none. */
export function accountOfPath(pathname: string): string | null {
  return PREFIX.exec(pathname)?.[1] ?? null;
}

/** The router's basename for an address: its account prefix, or none. */
export function accountBasename(pathname: string): string {
  const account = accountOfPath(pathname);
  return account === null ? '' : `/a/${account}`;
}

/** An address of a page in another account: the same section (configs, A/B tests…), its start. */
export function pathInAccount(accountId: string, pathname: string): string {
  const within = pathname.replace(PREFIX, '');
  const section = /^\/(configs|ab-tests|delivery|audit|settings)(?=\/|$)/.exec(within)?.[1];
  return `/a/${encodeURIComponent(accountId)}/${section ?? 'configs'}`;
}
