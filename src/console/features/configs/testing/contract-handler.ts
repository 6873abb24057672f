/**
 * MSW handlers from the contract's table: the URL and method are the endpoint's, the
 * request's params, headers and body are parsed with its schemas, and every answer is
 * parsed with the schema of its status. A handler that drifts from the contract throws
 * `ContractViolation`, which the test server reports as a failure.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import {
  API_BASE_PATH,
  contract,
  toFastifyPath,
  type Contract,
  type Endpoint,
  type EndpointName,
  type SuccessStatusOf,
} from '../../../../contract/endpoints';
import {
  PROBLEM_CONTENT_TYPE,
  problemOf,
  problemSchema,
  type Problem,
} from '../../../../contract/problem';
import { z } from '../../../../contract/zod';

export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

type OutputOf<T, Else> = T extends z.ZodMiniType ? z.output<T> : Else;
type Responses<N extends EndpointName> = Contract[N]['responses'];

/** What a handler answers: a success the endpoint lists, or a problem. */
export type ContractReply<N extends EndpointName> =
  | {
      [S in SuccessStatusOf<Contract[N]>]: {
        readonly status: S;
        readonly body: Responses<N>[S] extends z.ZodMiniType ? z.input<Responses<N>[S]> : undefined;
        readonly headers?: Readonly<Record<string, string>>;
      };
    }[SuccessStatusOf<Contract[N]>]
  | { readonly problem: Problem; readonly headers?: Readonly<Record<string, string>> }
  /** A server without this endpoint (beyond the seed): the 404 of an unknown route. */
  | typeof NOT_OFFERED;

export const NOT_OFFERED = { notOffered: true } as const;

export interface ContractRequest<N extends EndpointName> {
  readonly params: OutputOf<Contract[N] extends { params: infer P } ? P : undefined, object>;
  readonly headers: OutputOf<Contract[N] extends { headers: infer H } ? H : undefined, object>;
  readonly body: OutputOf<Contract[N] extends { body: infer B } ? B : undefined, undefined>;
  readonly request: Request;
}

function parsed(schema: z.ZodMiniType, value: unknown, what: string): unknown {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ContractViolation(`${what} breaks the contract: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}

async function bodyOf(name: EndpointName, endpoint: Endpoint, request: Request): Promise<unknown> {
  if (endpoint.body === undefined) return undefined;
  const text = await request.text();
  if (text === '' && endpoint.bodyRequired === false) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ContractViolation(`${name}: the request body is not JSON`);
  }
  return parsed(endpoint.body, json, `${name}: the request body`);
}

type AnyReply =
  | { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }
  | { readonly problem: Problem; readonly headers?: Readonly<Record<string, string>> }
  | typeof NOT_OFFERED;

function answer(name: EndpointName, endpoint: Endpoint, reply: AnyReply) {
  if ('notOffered' in reply) {
    if (endpoint.seed)
      throw new ContractViolation(`${name} is in the seed: every server offers it`);
    return HttpResponse.json(problemOf('not_found', 'Unknown route'), {
      status: 404,
      headers: { 'Content-Type': PROBLEM_CONTENT_TYPE },
    });
  }
  if ('problem' in reply) {
    const problem = parsed(problemSchema, reply.problem, `${name}: the problem`) as Problem;
    if (endpoint.responses[problem.status] === undefined) {
      throw new ContractViolation(`${name} does not answer ${problem.status}`);
    }
    return HttpResponse.json(problem, {
      status: problem.status,
      headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...reply.headers },
    });
  }
  const schema = endpoint.responses[reply.status];
  if (schema === undefined) throw new ContractViolation(`${name} does not answer ${reply.status}`);
  if (schema === null)
    return new HttpResponse(null, { status: reply.status, headers: reply.headers });
  parsed(schema, reply.body, `${name}: the ${reply.status} response`);
  return new HttpResponse(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'Content-Type': 'application/json', ...reply.headers },
  });
}

/** The handler of one endpoint, at any origin under the API's base path. */
export function contractHandler<N extends EndpointName>(
  name: N,
  resolve: (request: ContractRequest<N>) => ContractReply<N> | Promise<ContractReply<N>>,
): HttpHandler {
  const endpoint: Endpoint = contract[name];
  const url = `*${API_BASE_PATH}${toFastifyPath(endpoint.path)}`;
  const method =
    endpoint.method === 'DELETE' ? 'delete' : endpoint.method === 'POST' ? 'post' : 'get';
  return http[method](url, async ({ request, params }) => {
    const input = {
      params: endpoint.params ? parsed(endpoint.params, params, `${name}: the path`) : {},
      headers: endpoint.headers
        ? parsed(endpoint.headers, Object.fromEntries(request.headers), `${name}: the headers`)
        : {},
      body: await bodyOf(name, endpoint, request),
      request,
    } as ContractRequest<N>;
    return answer(name, endpoint, (await resolve(input)) as AnyReply);
  });
}
