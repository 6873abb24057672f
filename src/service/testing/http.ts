/**
 * Contract-checked calls over a real port (fetch), for tests of service processes: the
 * request is built from the contract's table, a 2xx body is parsed with the contract's schema
 * for that endpoint and status, anything else must be a problem+json. Test-only.
 */
import type { z } from '../../contract/zod';
import {
  contract,
  type Contract,
  type EndpointName,
  type ResponseBodyOf,
} from '../../contract/endpoints';
import { PROBLEM_CONTENT_TYPE, problemSchema, type Problem } from '../../contract/problem';
import { urlOf, type CallInput } from './api';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

export async function fetchEndpoint(
  baseUrl: string,
  key: string | undefined,
  name: EndpointName,
  input: CallInput = {},
): Promise<Answer> {
  const json = input.payload !== undefined;
  const response = await fetch(`${baseUrl}${urlOf(name, input)}`, {
    method: contract[name].method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...input.headers,
    },
    ...(json ? { body: JSON.stringify(input.payload) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/** The body of a 2xx answer, parsed with the contract's schema; throws on anything else. */
export function successOf<N extends EndpointName>(
  name: N,
  answer: Answer,
): ResponseBodyOf<Contract[N]> {
  const schema = (contract[name].responses as Readonly<Record<number, z.ZodMiniType | null>>)[
    answer.status
  ];
  if (answer.status >= 300 || schema === undefined)
    throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return (schema === null ? undefined : schema.parse(answer.body)) as ResponseBodyOf<Contract[N]>;
}

/** The problem of a non-2xx answer; throws unless it is problem+json with that status. */
export function problemOf(answer: Answer, status: number): Problem {
  if (answer.status !== status)
    throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  if (!(answer.headers.get('content-type') ?? '').includes(PROBLEM_CONTENT_TYPE))
    throw new Error(`not problem+json: ${answer.headers.get('content-type')}`);
  return problemSchema.parse(answer.body);
}

/** `fetchEndpoint` that must succeed; the parsed body. */
export async function fetchOk<N extends EndpointName>(
  baseUrl: string,
  key: string | undefined,
  name: N,
  input: CallInput = {},
): Promise<ResponseBodyOf<Contract[N]>> {
  return successOf(name, await fetchEndpoint(baseUrl, key, name, input));
}
