/**
 * An account's client keys in memory, over the contract's handlers (msw-contract.ts), for
 * the component tests of the Delivery page.
 */
import type { HttpHandler } from 'msw';
import type { ClientKey } from '../../contract/delivery';
import { problemOf } from '../../contract/problem';
import { handle, pageOf } from './msw-contract';

const AT = '2026-11-22T10:00:00.000Z';
export const REVOKED_AT = '2026-11-23T10:00:00.000Z';

/** A key of 24 base62 characters after `ck_`, different for each `n`. */
export function clientKeyValue(n: number): string {
  return `ck_${String(n).padStart(24, 'A')}`;
}

export class ClientKeyServer {
  readonly keys: ClientKey[] = [];
  /** The bodies of the create requests it received. */
  readonly created: unknown[] = [];
  readonly handlers: readonly HttpHandler[];
  private next = 1;

  constructor(keys: readonly Omit<ClientKey, 'id' | 'key' | 'created_at' | 'revoked_at'>[] = []) {
    for (const key of keys) this.add(key.name, key.apps);
    this.handlers = [
      handle('listClientKeys', (request) => pageOf(request, this.keys)),
      handle('createClientKey', ({ body }) => {
        this.created.push(body);
        return { status: 201, body: this.add(body.name, body.apps ?? null) };
      }),
      handle('revokeClientKey', ({ params }) => {
        const key = this.keys.find((candidate) => candidate.id === params.id);
        if (!key) return { problem: problemOf('not_found', `No client key ${params.id}`) };
        key.revoked_at ??= REVOKED_AT;
        return { status: 200, body: key };
      }),
    ];
  }

  add(name: string, apps: string[] | null): ClientKey {
    const n = this.next++;
    const key: ClientKey = {
      id: `ckey_${n}`,
      name,
      key: clientKeyValue(n),
      apps,
      created_at: AT,
      revoked_at: null,
    };
    this.keys.push(key);
    return key;
  }
}
