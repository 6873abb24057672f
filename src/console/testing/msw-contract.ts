/**
 * MSW for the console's component tests: handlers are registered by the contract's endpoint
 * name, and every request (headers, body) and response they see is parsed with its schemas,
 * so a handler cannot drift from the contract. A drift fails the test that caused it.
 */
import { http, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { z } from '../../contract/zod';
import {
  contract,
  toFastifyPath,
  type Contract,
  type Endpoint,
  type EndpointName,
} from '../../contract/endpoints';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../contract/problem';
import { problemResponse, TEST_BASE_URL } from './test-utils';

/** The body of an endpoint's request as its schema parses it. */
type ParsedBodyOf<E extends Endpoint> = E['body'] extends z.ZodMiniType
  ? z.output<E['body']>
  : undefined;

export interface ContractRequest<N extends EndpointName> {
  readonly request: Request;
  /** Path parameters, decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The body, parsed with the endpoint's request schema (undefined: none was sent). */
  readonly body: ParsedBodyOf<Contract[N]> | undefined;
}

export type ContractResolver<N extends EndpointName> = (
  request: ContractRequest<N>,
) => Response | Promise<Response>;

/** Why a handler's request or response does not fit the contract. */
export class ContractDrift extends Error {
  override readonly name = 'ContractDrift';
}

const drifts: ContractDrift[] = [];

function check(schema: z.ZodMiniType, value: unknown, what: string): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const drift = new ContractDrift(`${what}: ${z.prettifyError(parsed.error)}`);
    drifts.push(drift);
    throw drift;
  }
  return parsed.data;
}

async function checkResponse(name: EndpointName, response: Response): Promise<void> {
  // HttpResponse.error(): the network failed, there is no answer to check.
  if (response.type === 'error') return;
  const what = `${name} answered ${response.status}`;
  const endpoint: Endpoint = contract[name];
  const schema = endpoint.responses[response.status];
  if (schema === undefined) {
    const drift = new ContractDrift(`${what}, a status the contract does not list`);
    drifts.push(drift);
    throw drift;
  }
  const text = await response.text();
  if (schema === null) {
    if (text !== '') check(z.literal(''), text, `${what} with a body`);
    return;
  }
  if (!response.ok && response.headers.get('Content-Type') !== PROBLEM_CONTENT_TYPE) {
    check(z.never(), text, `${what} without ${PROBLEM_CONTENT_TYPE}`);
  }
  check(response.ok ? schema : problemSchema, JSON.parse(text), what);
}

function methodOf(endpoint: Endpoint) {
  return endpoint.method === 'DELETE' ? 'delete' : endpoint.method === 'POST' ? 'post' : 'get';
}

function urlOf(endpoint: Endpoint): string {
  return `${TEST_BASE_URL}${toFastifyPath(endpoint.path)}`;
}

/** An endpoint beyond the seed that this server does not offer: an unknown route's 404. */
export function notOffered(name: EndpointName): HttpHandler {
  const endpoint: Endpoint = contract[name];
  if (endpoint.seed) throw new Error(`${name} is in the seed: every server offers it`);
  return http[methodOf(endpoint)](urlOf(endpoint), () =>
    problemResponse('not_found', `Unknown route ${endpoint.method} ${endpoint.path}`),
  );
}

/** A handler for one endpoint of the contract, at the test connection's base URL. */
export function handle<N extends EndpointName>(
  name: N,
  resolver: ContractResolver<N>,
): HttpHandler {
  const endpoint: Endpoint = contract[name];
  return http[methodOf(endpoint)](urlOf(endpoint), async ({ request, params }) => {
    if (endpoint.headers) {
      check(endpoint.headers, Object.fromEntries(request.headers), `the ${name} headers`);
    }
    const text = await request.clone().text();
    const requestSchema = endpoint.body;
    const body =
      requestSchema === undefined || text === ''
        ? undefined
        : (check(requestSchema, JSON.parse(text), `the ${name} request`) as ParsedBodyOf<
            Contract[N]
          >);
    const decoded = Object.fromEntries(
      Object.entries(params).map(([key, value]) => [key, String(value)]),
    );
    const response = await resolver({ request, params: decoded, body });
    await checkResponse(name, response.clone());
    return response;
  });
}

/** The drifts seen since the last call (each test's end checks there are none). */
export function takeDrifts(): ContractDrift[] {
  return drifts.splice(0);
}

/** The requests the server sees from now until the end of the test. */
export function recordRequests(server: SetupServer): Request[] {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => seen.push(request));
  return seen;
}

/**
 * One MSW server for a test file: listening for its tests, with the handlers a test adds
 * dropped after it. A request no handler takes, or a drift from the contract, fails the test.
 */
export function setupContractServer(...handlers: HttpHandler[]): SetupServer {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    server.events.removeAllListeners();
    const drift = takeDrifts().at(0);
    if (drift) throw drift;
  });
  afterAll(() => server.close());
  return server;
}
