/**
 * Contract-checked calls for the API tests: every request is built from the contract's table
 * (method and path), every 2xx body is parsed with the contract's schema for that endpoint
 * and status, and every non-2xx must be `application/problem+json` that parses as a Problem.
 * Test-only.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { parse as parseYaml } from 'yaml';
import { expect } from 'vitest';
import type { z } from '../../contract/zod';
import type { ConfigEditResult } from '../../contract/config-edit';
import {
  API_BASE_PATH,
  buildPath,
  contract,
  type Contract,
  type EndpointName,
  type ResponseBodyOf,
  type SuccessStatusOf,
} from '../../contract/endpoints';
import type { Operation } from '../../contract/operations';
import { PROBLEM_CONTENT_TYPE, problemSchema, type Problem } from '../../contract/problem';
import { cursorOfPageUrl, nextPageUrlOf } from '../../contract/page-links';
import type { TestService } from './test-service';

export interface CallInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** A JSON value (sent as application/json) or a string / Buffer sent as it is. */
  readonly payload?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The URL of an endpoint of the contract, under /api/v1. */
export function urlOf(name: EndpointName, input: CallInput = {}): string {
  const path = `${API_BASE_PATH}${buildPath(contract[name].path, input.params ?? {})}`;
  const query = input.query ? `?${new URLSearchParams(input.query).toString()}` : '';
  return `${path}${query}`;
}

/** Sends a request to an endpoint of the contract with `key` (none: unauthenticated). */
export function send(
  service: TestService,
  key: string | undefined,
  name: EndpointName,
  input: CallInput = {},
): Promise<LightMyRequestResponse> {
  const request: InjectOptions = {
    method: contract[name].method,
    url: urlOf(name, input),
    ...(input.headers ? { headers: { ...input.headers } } : {}),
    ...(input.payload !== undefined ? { payload: input.payload as InjectOptions['payload'] } : {}),
  };
  return service.call(key, request);
}

type Schemas = Readonly<Partial<Record<number, z.ZodMiniType | null>>>;

/** The 2xx status an endpoint answers with (200, or 201 / 204 where the contract says so). */
export function successStatusOf(name: EndpointName): number {
  const statuses = Object.keys(contract[name].responses).map(Number);
  const success = statuses.find((status) => status < 300);
  if (success === undefined) throw new Error(`${name} has no success response`);
  return success;
}

/**
 * Asserts that `response` is the endpoint's success response and returns its body parsed
 * with the contract's schema for that status (undefined for a 204 without a body).
 */
export function expectSuccess<N extends EndpointName>(
  name: N,
  response: LightMyRequestResponse,
  status: SuccessStatusOf<Contract[N]> = successStatusOf(name) as SuccessStatusOf<Contract[N]>,
): ResponseBodyOf<Contract[N]> {
  expect(response.statusCode, `${name}: ${response.body}`).toBe(Number(status));
  const schema = (contract[name].responses as Schemas)[Number(status)];
  if (schema === undefined) throw new Error(`${name} declares no response ${String(status)}`);
  if (schema === null) {
    expect(response.body).toBe('');
    return undefined as ResponseBodyOf<Contract[N]>;
  }
  expect(response.headers['content-type']).toMatch(/^application\/json(;|$)/);
  const parsed = schema.safeParse(response.json());
  if (!parsed.success) {
    throw new Error(
      `${name} ${String(status)}: the body does not match the contract: ${JSON.stringify(parsed.error.issues)}`,
    );
  }
  return parsed.data as ResponseBodyOf<Contract[N]>;
}

/** Sends and expects the endpoint's success response; returns the parsed body. */
export async function ok<N extends EndpointName>(
  service: TestService,
  key: string | undefined,
  name: N,
  input: CallInput = {},
): Promise<ResponseBodyOf<Contract[N]>> {
  return expectSuccess(name, await send(service, key, name, input));
}

/** Every item of a paged list, following its Link headers (200 at a time). */
export async function allPagesOf<N extends EndpointName>(
  service: TestService,
  key: string | undefined,
  name: N,
  input: CallInput = {},
): Promise<ResponseBodyOf<Contract[N]>> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  do {
    const query = { ...input.query, limit: '200', ...(cursor ? { cursor } : {}) };
    const response = await send(service, key, name, { ...input, query });
    items.push(...(expectSuccess(name, response) as unknown[]));
    const next = nextPageUrlOf(response.headers.link as string | undefined);
    cursor = next === undefined ? undefined : cursorOfPageUrl(next);
  } while (cursor !== undefined);
  return items as ResponseBodyOf<Contract[N]>;
}

/**
 * Asserts that `response` is a problem+json response with `status` (and `code`, when given)
 * and returns the parsed problem.
 */
export function expectProblem(
  response: LightMyRequestResponse,
  status: number,
  code?: string,
): Problem {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
  expect(String(response.headers['content-type'])).toContain(PROBLEM_CONTENT_TYPE);
  const parsed = problemSchema.safeParse(response.json());
  if (!parsed.success) {
    throw new Error(`not a problem body: ${response.body} ${JSON.stringify(parsed.error.issues)}`);
  }
  const problem = parsed.data;
  expect(problem.status).toBe(status);
  expect(problem.type).toBe(`urn:provisioning:problem:${problem.code}`);
  if (code !== undefined) expect(problem.code).toBe(code);
  return problem;
}

/** The paths of a problem's `errors`. */
export function errorPaths(problem: Problem): string[] {
  return (problem.errors ?? []).map((error) => error.path);
}

export interface EditBody {
  readonly operations: readonly (Operation | Record<string, unknown>)[];
  readonly config_id?: string;
  readonly summary?: string;
  readonly base_revision?: number;
}

/** `POST /config/edit`, the raw response. */
export function edit(
  service: TestService,
  key: string,
  body: EditBody | unknown,
  headers?: Readonly<Record<string, string>>,
): Promise<LightMyRequestResponse> {
  return send(service, key, 'editConfig', { payload: body, ...(headers ? { headers } : {}) });
}

/** `POST /config/edit` that must succeed; the parsed result and the response's ETag. */
export async function editOk(
  service: TestService,
  key: string,
  body: EditBody,
  headers?: Readonly<Record<string, string>>,
): Promise<ConfigEditResult & { etag: string | undefined }> {
  const response = await edit(service, key, body, headers);
  const result = expectSuccess('editConfig', response);
  return { ...result, etag: response.headers.etag as string | undefined };
}

/** The data of a config's YAML. */
export function dataOf(yaml: string): {
  apps?: Record<string, unknown>[];
  ab_tests?: Record<string, unknown>[];
} {
  return (parseYaml(yaml) ?? {}) as ReturnType<typeof dataOf>;
}

/** A controllable clock for `startTestService({clock})`. */
export function manualClock(start = '2026-11-22T10:00:00.000Z') {
  let now = new Date(start).getTime();
  return {
    clock: () => new Date(now),
    set(at: string | Date) {
      now = new Date(at).getTime();
    },
    advance(ms: number) {
      now += ms;
    },
    now: () => new Date(now),
  };
}

export const CREATE_APP = (id: string, extra: Record<string, unknown> = {}) => ({
  create_app: [{ id, name: `App ${id}`, platform: 'web', ...extra }],
});

/** A valid live config with two apps, a running A/B test and a draft one. */
export const SHOP_YAML = `# Apps this account provisions.
apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      theme: light
      button_size: medium
  - id: ios-app
    name: Shop for iOS
    platform: ios
ab_tests:
  - id: bigger-button
    app: checkout
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: 2026-11-01T09:00:00.000Z
  - id: onboarding
    app: ios-app
    status: draft
    variants:
      - id: a
        weight: 50
      - id: b
        weight: 50
`;

/**
 * Any response of an endpoint: a 2xx must match the contract's schema for that endpoint and
 * status, anything else must be a problem. Returns the status.
 */
export function expectConforming(name: EndpointName, response: LightMyRequestResponse): number {
  const status = response.statusCode;
  if (status >= 200 && status < 300) {
    expectSuccess(name, response, status as SuccessStatusOf<Contract[EndpointName]>);
  } else {
    expectProblem(response, status);
  }
  return status;
}

/** Everything of an account a refused request must leave as it was: configs, records, histories. */
export async function accountSnapshot(service: TestService, key: string) {
  const configs = await ok(service, key, 'listConfigs');
  const records = await Promise.all(
    configs.map((config) => ok(service, key, 'getConfig', { params: { id: config.id } })),
  );
  const histories = await Promise.all(
    configs.map((config) => ok(service, key, 'getConfigHistory', { params: { id: config.id } })),
  );
  return { configs, records, histories };
}
