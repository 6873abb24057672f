/**
 * What an endpoint of the contract table is (src/contract/endpoints.ts), and the helpers the
 * table's parts are written with.
 */
import type { z } from './zod';
import type { Permission } from './auth-status';
import { problemSchema } from './problem';

export const API_BASE_PATH = '/api/v1';
/** A larger body gets 413 (docs/api.md, Limits). */
export const MAX_BODY_BYTES = 1_048_576;
/** An edit whose resulting YAML would be larger gets 409 (config_too_large). */
export const MAX_CONFIG_YAML_BYTES = 4 * 1_048_576;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type EndpointTag =
  | 'auth'
  | 'configs'
  | 'reviews'
  | 'account'
  | 'api-keys'
  | 'client-keys'
  | 'delivery'
  | 'webhooks'
  | 'audit'
  | 'people'
  | 'environments'
  | 'experiments'
  | 'meta';

/** The statuses an endpoint answers with a problem body (docs/api.md, Errors). */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 503;

export interface Endpoint {
  readonly method: HttpMethod;
  /** OpenAPI style, relative to API_BASE_PATH: `/configs/{id}`. */
  readonly path: `/${string}`;
  readonly summary: string;
  readonly description?: string;
  readonly tag: EndpointTag;
  /** A core endpoint: a console must cope with a server that offers only these (docs/api.md). */
  readonly seed: boolean;
  /**
   * `public`: no credentials needed; `signed_in`: a valid API key (Bearer) or a session
   * cookie, holding `permission` when it is set; `client_key`: a client key in the path
   * (`{client_key}`), and no API key is looked at.
   */
  readonly auth: 'public' | 'signed_in' | 'client_key';
  /** Checked before the body is read; a BodyPermission once the body has parsed. */
  readonly permission: Permission | BodyPermission | null;
  readonly params?: z.ZodMiniObject;
  readonly query?: z.ZodMiniObject;
  /** Request headers, lower-case names. */
  readonly headers?: z.ZodMiniObject;
  readonly body?: z.ZodMiniType;
  /** False: the body may be left out (nothing to say); a body that is sent must parse. */
  readonly bodyRequired?: boolean;
  /** A smaller bound on the body than MAX_BODY_BYTES: larger gets 413. */
  readonly maxBodyBytes?: number;
  /** JSON is also taken as text/plain (what `navigator.sendBeacon` and CORS simple requests send). */
  readonly plainTextJson?: boolean;
  /**
   * Successful responses carry an ETag naming their content (a config: `etagOf`). A GET that
   * also lists 304 answers it, without a body, to an `If-None-Match` naming that ETag.
   */
  readonly etag?: boolean;
  /**
   * A list: its query takes `limit` and `cursor` (pagedQuerySchema), and a 200 carries the
   * next page's URL in `Link` unless it is the last.
   */
  readonly paged?: boolean;
  /**
   * About the person rather than one account (who am I, my accounts, my sessions): a session
   * reaching several accounts needs no X-Account-Id here, and acts on the one it began in.
   */
  readonly personLevel?: boolean;
  /** What a 200 is when it is not one JSON value: Server-Sent Events, or JSON lines. */
  readonly stream?: 'text/event-stream' | 'application/x-ndjson';
  /** By status; `null` for a response without a body (204). */
  readonly responses: Readonly<Partial<Record<number, z.ZodMiniType | null>>>;
}

/** A permission that depends on what the body asks (a verdict needs more than a comment). */
export interface BodyPermission {
  /** Each permission the body can need, and when: what the OpenAPI document states. */
  readonly cases: readonly { readonly permission: Permission; readonly when: string }[];
  /** The permission this (parsed) body needs: one of `cases`. */
  readonly of: (body: never) => Permission;
}

/** The permission a request needs, once its body has parsed; null: none. */
export function permissionOf(
  endpoint: Pick<Endpoint, 'permission'>,
  body: unknown,
): Permission | null {
  const { permission } = endpoint;
  if (permission === null || typeof permission === 'string') return permission;
  return (permission.of as (body: unknown) => Permission)(body);
}

export function problems<const S extends ProblemStatus>(
  ...statuses: S[]
): Readonly<Record<S, typeof problemSchema>> {
  return Object.fromEntries(statuses.map((status) => [status, problemSchema])) as Record<
    S,
    typeof problemSchema
  >;
}

/** Keeps each endpoint's literal types (paths, statuses) for the helper types below. */
export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

/** Each endpoint of a part of the table, given its name there. */
export type NamedEndpoints<T extends Readonly<Record<string, Endpoint>>> = {
  readonly [N in keyof T & string]: T[N] & { readonly name: N };
};

/**
 * A part of the contract table, each endpoint carrying its name: the console calls an
 * endpoint through the part that defines it, so the bundler puts the part's schemas in the
 * chunk of the pages that call them rather than in the first page (docs/architecture.md).
 */
export function namedEndpoints<const T extends Readonly<Record<string, Endpoint>>>(
  endpoints: T,
): NamedEndpoints<T> {
  return Object.fromEntries(
    Object.entries(endpoints).map(([name, definition]) => [name, { ...definition, name }]),
  ) as NamedEndpoints<T>;
}

/** `/configs/{id}` with `{id: 'a/b'}` -> `/configs/a%2Fb`; throws on a missing parameter. */
export function buildPath(path: string, params: Readonly<Record<string, string>> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path ${path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** `/configs/{id}` -> `/configs/:id`, the form Fastify routes take. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
