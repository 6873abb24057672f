/**
 * The one API client. The base URL comes from the connection, and so does how it proves who
 * it is: the session cookie (with the console's request header, a CSRF defence) or a key
 * held in memory, sent only in the Authorization header. A call names the endpoint's
 * definition, taken from the part of the contract that defines it (never the whole table:
 * each part's schemas load with the pages that call it). Every success is parsed with the
 * contract's schema for the endpoint, every failure becomes a typed error: `ApiProblem`
 * (the server answered with a problem), `NetworkError` (no answer), `ResponseParseError`
 * (an answer that is not what the contract says).
 * A 401 in a session that was working does not fail the request: it waits while the person
 * signs in again in place, then is sent again. Any other 401 signs out; the router then
 * sends the person to the sign-in page.
 */
import { z } from '../../contract/zod';
import { buildPath, type Endpoint } from '../../contract/endpoint-kit';
import type {
  EndpointName,
  NamedEndpoint,
  ParamsOf,
  QueryOf,
  RequestBodyOf,
  ResponseBodyOf,
} from '../../contract/endpoints';
import {
  problemSchema,
  UNAUTHENTICATED_CODES,
  type EditConflict,
  type Problem,
  type ProblemFieldError,
  type UnauthenticatedCode,
} from '../../contract/problem';
import type { ValidationReport } from '../../contract/validation';
import { ACCOUNT_HEADER, CONSOLE_REQUEST_HEADER } from '../../contract/request-headers';
import { accountOfPath } from './environment';
import {
  connectionStore,
  defaultBaseUrl,
  SignedOutError,
  type AuthFailure,
  type Connection,
} from './connection';

export class ApiProblem extends Error {
  override readonly name = 'ApiProblem';
  readonly endpoint: EndpointName;
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly ProblemFieldError[];
  readonly validation: ValidationReport | undefined;
  /** For `edit_conflict`: each field both edits changed. */
  readonly conflicts: readonly EditConflict[];
  /** The `WWW-Authenticate` challenge of a 401 or 403. */
  readonly challenge: string | undefined;
  /** Seconds to wait, from `Retry-After` (429). */
  readonly retryAfterSeconds: number | undefined;
  /** Whether every server offers the endpoint (`seed` in the contract): see isNotOffered. */
  readonly core: boolean;

  constructor(
    endpoint: Pick<NamedEndpoint, 'name' | 'seed'>,
    problem: Problem,
    headers: { challenge?: string | undefined; retryAfterSeconds?: number | undefined } = {},
  ) {
    super(`${endpoint.name}: ${problem.status} ${problem.code}: ${problem.detail}`);
    this.endpoint = endpoint.name;
    this.core = endpoint.seed;
    this.status = problem.status;
    this.code = problem.code;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.validation = problem.validation;
    this.conflicts = problem.conflicts ?? [];
    this.challenge = headers.challenge;
    this.retryAfterSeconds = headers.retryAfterSeconds;
  }

  /** For a 401: whether the key was revoked, has expired, or is not valid at all. */
  get authFailure(): AuthFailure | undefined {
    if (this.status !== 401) return undefined;
    return authFailureOf(this.code);
  }
}

/** The server could not be reached (DNS, refused, offline, blocked by CORS or CSP). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly baseUrl: string;
  constructor(baseUrl: string, options?: ErrorOptions) {
    super(`The server could not be reached at ${baseUrl}.`, options);
    this.baseUrl = baseUrl;
  }
}

/** A success response that does not match the contract (or is not JSON). */
export class ResponseParseError extends Error {
  override readonly name = 'ResponseParseError';
  readonly endpoint: EndpointName;
  readonly status: number;
  readonly issues: readonly z.core.$ZodIssue[];
  constructor(
    endpoint: EndpointName,
    status: number,
    reason: string,
    issues: readonly z.core.$ZodIssue[] = [],
    options?: ErrorOptions,
  ) {
    super(`${endpoint}: the ${status} response does not match the contract: ${reason}`, options);
    this.endpoint = endpoint;
    this.status = status;
    this.issues = issues;
  }
}

/** A request was made without a connection (a bug, or a sign-out while it was queued). */
export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';
  constructor() {
    super('Not signed in: sign in first.');
  }
}

const AUTH_FAILURE_OF_CODE: Readonly<Record<UnauthenticatedCode, AuthFailure>> = {
  unauthenticated: 'invalid',
  api_key_invalid: 'invalid',
  api_key_revoked: 'revoked',
  api_key_expired: 'expired',
  session_expired: 'expired',
  session_revoked: 'revoked',
};

function isUnauthenticatedCode(code: string): code is UnauthenticatedCode {
  return (UNAUTHENTICATED_CODES as readonly string[]).includes(code);
}

/** What a 401's problem code says about the key; a code the console does not know: invalid. */
export function authFailureOf(code: string): AuthFailure {
  return isUnauthenticatedCode(code) ? AUTH_FAILURE_OF_CODE[code] : 'invalid';
}

export interface RequestOptions<E extends Endpoint> {
  readonly params?: ParamsOf<E>;
  readonly query?: QueryOf<E>;
  readonly body?: RequestBodyOf<E>;
  /** Extra request headers, e.g. If-Match. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /**
   * Use this connection instead of the stored one (checking a key, or a session just
   * renewed). A 401 then only throws: the stored connection is left alone.
   */
  readonly connection?: Connection;
}

export interface ApiResponse<T> {
  readonly data: T;
  readonly status: number;
  readonly headers: Headers;
}

function urlOf(baseUrl: string, endpoint: Endpoint, params: object, query: object): string {
  const path = buildPath(endpoint.path, params as Record<string, string>);
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const queryString = search.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${queryString ? `?${queryString}` : ''}`;
}

/** The schema of a success status; the endpoint's only success schema for an unlisted 2xx. */
function successSchemaOf(endpoint: Endpoint, status: number): z.ZodMiniType | null {
  const listed = endpoint.responses[status];
  if (listed !== undefined) return listed;
  for (const [code, schema] of Object.entries(endpoint.responses)) {
    if (Number(code) < 300 && schema !== undefined) return schema;
  }
  return null;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

async function problemOf(endpoint: NamedEndpoint, response: Response): Promise<ApiProblem> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const headers = {
    challenge: response.headers.get('WWW-Authenticate') ?? undefined,
    retryAfterSeconds: retryAfterOf(response.headers),
  };
  const parsed = problemSchema.safeParse(body);
  if (parsed.success)
    return new ApiProblem(endpoint, { ...parsed.data, status: response.status }, headers);
  // Not a problem body (a proxy, or a server that is not this one): keep the status.
  const answer = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new ApiProblem(
    endpoint,
    {
      type: 'about:blank',
      title: response.statusText || `HTTP ${response.status}`,
      status: response.status,
      detail: `The server answered ${answer}.`,
      code: response.status === 404 ? 'not_found' : `http_${response.status}`,
    },
    headers,
  );
}

/** The request as fetch takes it; the key, if any, only in the Authorization header. */
function requestInit(
  endpoint: Endpoint,
  connection: Connection,
  options: RequestOptions<Endpoint>,
): RequestInit {
  const headers = new Headers({ Accept: 'application/json, application/problem+json' });
  if (connection.apiKey !== null) {
    if (endpoint.auth === 'signed_in') headers.set('Authorization', `Bearer ${connection.apiKey}`);
  } else {
    // The session cookie's requests say they come from the console (CSRF). A Bearer request
    // needs no such proof, and another origin's CORS would have to allow the header.
    headers.set(CONSOLE_REQUEST_HEADER.name, CONSOLE_REQUEST_HEADER.value);
  }
  // The tab's environment, from its address (lib/environment.ts); none: the caller's own.
  const account = accountOfPath(window.location.pathname);
  if (account !== null && endpoint.auth === 'signed_in') headers.set(ACCOUNT_HEADER, account);
  let body: string | undefined;
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  for (const [header, value] of Object.entries(options.headers ?? {})) headers.set(header, value);
  return {
    method: endpoint.method,
    headers,
    body,
    signal: options.signal,
    // The session cookie goes to this origin only, and is kept from its answers.
    credentials: 'same-origin',
    // What the server answers 304 to is kept by the browser and revalidated (it sends
    // If-None-Match and turns a 304 into the kept 200); the rest is never stored.
    cache: 304 in endpoint.responses ? 'no-cache' : 'no-store',
  };
}

/**
 * What a 401 means for the stored connection: `wait` while the person signs in again (a
 * session that was working ended), or sign out (a key that failed, or no session at all).
 */
function onUnauthorized(problem: ApiProblem, connection: Connection): 'wait' | 'throw' {
  const state = connectionStore.getSnapshot();
  // Only the stored connection is judged, and only if it is still the one that failed.
  if (state.connection !== connection) return state.interrupted === null ? 'throw' : 'wait';
  const failure = problem.authFailure ?? 'invalid';
  if (state.confirmed && connection.apiKey === null) {
    connectionStore.interrupt(failure);
    return 'wait';
  }
  const sessionEnded = problem.code === 'session_expired' || problem.code === 'session_revoked';
  // Never signed in on this page: only a session that had ended is worth a word.
  connectionStore.signOut(
    state.confirmed
      ? { kind: 'unauthorized', failure }
      : sessionEnded
        ? { kind: 'session-ended', failure }
        : undefined,
  );
  return 'throw';
}

/** Calls an endpoint of the contract and returns its parsed body with status and headers. */
export async function callApi<E extends NamedEndpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<ApiResponse<ResponseBodyOf<E>>> {
  for (;;) {
    const stored = connectionStore.getSnapshot();
    // A public endpoint (signing in) needs no connection: this origin's API, or the one chosen.
    const connection =
      options.connection ??
      stored.connection ??
      (endpoint.auth === 'public' ? { baseUrl: defaultBaseUrl(), apiKey: null } : null);
    if (!connection) throw new NotConnectedError();
    if (
      stored.interrupted !== null &&
      options.connection === undefined &&
      endpoint.auth !== 'public'
    ) {
      // The session already ended: wait for the person rather than collect another 401.
      await connectionStore.whenResumed(options.signal);
      continue;
    }

    let response: Response;
    try {
      response = await fetch(
        urlOf(connection.baseUrl, endpoint, options.params ?? {}, options.query ?? {}),
        requestInit(endpoint, connection, options as RequestOptions<Endpoint>),
      );
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new NetworkError(connection.baseUrl, { cause: error });
    }

    if (!response.ok) {
      const problem = await problemOf(endpoint, response);
      if (
        problem.status === 401 &&
        endpoint.auth === 'signed_in' &&
        options.connection === undefined &&
        onUnauthorized(problem, connection) === 'wait'
      ) {
        await connectionStore.whenResumed(options.signal);
        continue;
      }
      throw problem;
    }
    return readSuccess(endpoint, response);
  }
}

async function readSuccess<E extends NamedEndpoint>(
  endpoint: E,
  response: Response,
): Promise<ApiResponse<ResponseBodyOf<E>>> {
  const { name } = endpoint;
  const schema = successSchemaOf(endpoint, response.status);
  if (schema === null) {
    return {
      data: undefined as ResponseBodyOf<E>,
      status: response.status,
      headers: response.headers,
    };
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ResponseParseError(name, response.status, 'the body is not JSON', [], {
      cause: error,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ResponseParseError(
      name,
      response.status,
      z.prettifyError(parsed.error),
      parsed.error.issues,
    );
  }
  return {
    data: parsed.data as ResponseBodyOf<E>,
    status: response.status,
    headers: response.headers,
  };
}

/** Calls an endpoint of the contract and returns its parsed body. */
export async function apiRequest<E extends NamedEndpoint>(
  endpoint: E,
  options: RequestOptions<E> = {},
): Promise<ResponseBodyOf<E>> {
  return (await callApi(endpoint, options)).data;
}

/** A 404 from an endpoint that is not core (docs/api.md): this server does not offer it. */
export function isNotOffered(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 404 && !error.core;
}

/** An error in words a person understands, for notices and form alerts. */
export function describeError(error: unknown): string {
  if (error instanceof NetworkError) return error.message;
  if (error instanceof ApiProblem) {
    if (error.status === 429) {
      return error.retryAfterSeconds === undefined
        ? 'Too many requests. Try again in a moment.'
        : `Too many requests. Try again in ${error.retryAfterSeconds} seconds.`;
    }
    if (error.status >= 500) return 'The server ran into a problem. Try again later.';
    return error.detail.endsWith('.') ? error.detail : `${error.detail}.`;
  }
  if (error instanceof ResponseParseError) {
    return 'The server sent an answer the console does not understand.';
  }
  if (error instanceof NotConnectedError) return 'Sign in to continue.';
  if (error instanceof SignedOutError) return 'You signed out before it could be done.';
  return 'Something went wrong.';
}
