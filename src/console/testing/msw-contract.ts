/**
 * MSW for the console's component tests: a handler is registered by the contract's endpoint
 * name, parses the request (path, headers, body) with its schemas and answers only what the
 * endpoint lists. A drift from the contract, or a request no handler takes, fails the test.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  contract,
  toFastifyPath,
  type Contract,
  type Endpoint,
  type EndpointName,
  type SuccessStatusOf,
} from '../../contract/endpoints';
import {
  PROBLEM_CODES,
  PROBLEM_CONTENT_TYPE,
  problemOf,
  problemSchema,
  type Problem,
} from '../../contract/problem';
import { DEFAULT_PAGE_LIMIT } from '../../contract/pages';
import { z } from '../../contract/zod';
import { TEST_BASE_URL } from './test-utils';

/** Why a handler's request or answer does not fit the contract. */
export class ContractDrift extends Error {
  override readonly name = 'ContractDrift';
}

type HeaderMap = Readonly<Record<string, string>>;
type OutputOf<T, Else> = T extends z.ZodMiniType ? z.output<T> : Else;
type Responses<N extends EndpointName> = Contract[N]['responses'];

/**
 * What a handler answers: a success the endpoint lists (the body as its schema takes it),
 * or a problem.
 */
export type ContractReply<N extends EndpointName> =
  | {
      [S in SuccessStatusOf<Contract[N]>]: Responses<N>[S] extends z.ZodMiniType
        ? {
            readonly status: S;
            readonly body: z.input<Responses<N>[S]>;
            readonly headers?: HeaderMap;
          }
        : { readonly status: S; readonly body?: undefined; readonly headers?: HeaderMap };
    }[SuccessStatusOf<Contract[N]>]
  | { readonly problem: Problem; readonly headers?: HeaderMap };

export interface ContractRequest<N extends EndpointName> {
  /** Path parameters, decoded and parsed. */
  readonly params: OutputOf<Contract[N] extends { params: infer P } ? P : undefined, object>;
  /** The URL's query, parsed with the endpoint's query schema. */
  readonly query: OutputOf<Contract[N] extends { query: infer Q } ? Q : undefined, object>;
  /** Lower-case names, parsed with the endpoint's header schema. */
  readonly headers: OutputOf<Contract[N] extends { headers: infer H } ? H : undefined, object>;
  /** Parsed with the request schema (undefined: none, where the endpoint may go without). */
  readonly body: OutputOf<Contract[N] extends { body: infer B } ? B : undefined, undefined>;
  readonly request: Request;
}

export type ContractResolver<N extends EndpointName> = (
  request: ContractRequest<N>,
) => ContractReply<N> | Promise<ContractReply<N>>;

type AnyReply =
  | { readonly status: number; readonly body?: unknown; readonly headers?: HeaderMap }
  | { readonly problem: Problem; readonly headers?: HeaderMap };

/** What handlers threw during the current test: drifts, and their own bugs. */
const failures: Error[] = [];

function parsed(schema: z.ZodMiniType, value: unknown, what: string): unknown {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ContractDrift(`${what} breaks the contract: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}

async function bodyOf(name: EndpointName, endpoint: Endpoint, request: Request): Promise<unknown> {
  if (endpoint.body === undefined) return undefined;
  const text = await request.clone().text();
  if (text === '' && endpoint.bodyRequired === false) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ContractDrift(`${name}: the request body is not JSON`);
  }
  return parsed(endpoint.body, json, `${name}: the request body`);
}

function answer(name: EndpointName, endpoint: Endpoint, reply: AnyReply): Response {
  if ('problem' in reply) {
    const problem = parsed(problemSchema, reply.problem, `${name}: the problem`) as Problem;
    if (endpoint.responses[problem.status] === undefined) {
      throw new ContractDrift(`${name} answered ${problem.status}, a status it does not list`);
    }
    return HttpResponse.json(problem, {
      status: problem.status,
      headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...reply.headers },
    });
  }
  const schema = endpoint.responses[reply.status];
  if (schema === undefined) {
    throw new ContractDrift(`${name} answered ${reply.status}, a status it does not list`);
  }
  if (schema === null) {
    if (reply.body !== undefined) throw new ContractDrift(`${name}: a ${reply.status} has no body`);
    return new HttpResponse(null, { status: reply.status, headers: reply.headers });
  }
  parsed(schema, reply.body, `${name}: the ${reply.status} response`);
  return new HttpResponse(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'Content-Type': 'application/json', ...reply.headers },
  });
}

function route(endpoint: Endpoint) {
  const method = (
    { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' } as const
  )[endpoint.method];
  return { method, url: `${TEST_BASE_URL}${toFastifyPath(endpoint.path)}` } as const;
}

/** The handler of one endpoint, at the test connection's base URL. */
export function handle<N extends EndpointName>(name: N, resolve: ContractResolver<N>): HttpHandler {
  const endpoint: Endpoint = contract[name];
  const { method, url } = route(endpoint);
  return http[method](url, async ({ request, params }) => {
    try {
      const input = {
        params: endpoint.params ? parsed(endpoint.params, params, `${name}: the path`) : {},
        query: endpoint.query
          ? parsed(
              endpoint.query,
              Object.fromEntries(new URL(request.url).searchParams),
              `${name}: the query`,
            )
          : {},
        headers: endpoint.headers
          ? parsed(endpoint.headers, Object.fromEntries(request.headers), `${name}: the headers`)
          : {},
        body: await bodyOf(name, endpoint, request),
        request,
      } as ContractRequest<N>;
      return answer(name, endpoint, (await resolve(input)) as AnyReply);
    } catch (error) {
      // MSW answers 500; the test fails at its end unless it took the failure.
      failures.push(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  });
}

/**
 * A server without this endpoint answers 404 as for an unknown route. Only an endpoint that
 * is not core (`seed: false` in the contract) may be missing; every server has the core ones.
 */
export function notOffered(name: EndpointName): HttpHandler {
  const endpoint: Endpoint = contract[name];
  if (endpoint.seed) throw new ContractDrift(`${name} is a core endpoint: every server offers it`);
  const { method, url } = route(endpoint);
  return http[method](url, () =>
    HttpResponse.json(problemOf('not_found', `Unknown route ${endpoint.method} ${endpoint.path}`), {
      status: 404,
      headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
    }),
  );
}

/** The answer to a key that is not valid, revoked or expired (`code`), as the service sends it. */
export function unauthorized(
  code: 'api_key_invalid' | 'api_key_revoked' | 'api_key_expired',
  detail: string = PROBLEM_CODES[code].title,
): { readonly problem: Problem; readonly headers: HeaderMap } {
  return {
    problem: problemOf(code, detail),
    headers: {
      'WWW-Authenticate': `Bearer realm="provisioning", error="invalid_token", error_description="${detail}"`,
    },
  };
}

/**
 * One page of `items` as a paged endpoint answers it: `limit` (default DEFAULT_PAGE_LIMIT) and
 * `cursor` from the request, and the next page's URL in `Link` unless this page is the last.
 * The cursor here is the offset, written so that nothing but this helper reads it.
 */
export function pageOf<T>(
  { request, query }: { request: Request; query: { limit?: number; cursor?: string } },
  items: readonly T[],
): { status: 200; body: T[]; headers: HeaderMap } {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const start = query.cursor === undefined ? 0 : Number(/^at-(\d+)$/.exec(query.cursor)?.[1]);
  if (!Number.isInteger(start))
    throw new ContractDrift(`a cursor this server never made: ${query.cursor}`);
  const end = start + limit;
  if (end >= items.length) return { status: 200, body: items.slice(start), headers: {} };
  const next = new URL(request.url);
  next.searchParams.set('cursor', `at-${end}`);
  return {
    status: 200,
    body: items.slice(start, end),
    headers: { Link: `<${next.pathname}${next.search}>; rel="next"` },
  };
}

/** What handlers threw since the last call: a test that provokes a drift takes it here. */
export function takeFailures(): Error[] {
  return failures.splice(0);
}

/** The requests the server sees from now until the end of the test. */
export function recordRequests(server: SetupServer): Request[] {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => seen.push(request));
  return seen;
}

/**
 * One MSW server for a test file, listening for its tests; the handlers a test adds are
 * dropped after it. A request no handler takes, or a handler that threw, fails the test.
 */
export function setupContractServer(...handlers: HttpHandler[]): SetupServer {
  // Environments and schedules are not offered unless a test says so: none is shown.
  const server = setupServer(...handlers, notOffered('listAccounts'), notOffered('listSchedules'));
  beforeAll(() =>
    server.listen({
      onUnhandledRequest(request, print) {
        failures.push(new Error(`No handler for ${request.method} ${request.url}`));
        print.error();
      },
    }),
  );
  afterEach(() => {
    server.resetHandlers();
    server.events.removeAllListeners();
    const failure = takeFailures().at(0);
    if (failure) throw failure;
  });
  afterAll(() => server.close());
  return server;
}
