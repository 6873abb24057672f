/**
 * Every endpoint of the HTTP contract in one table, in the spirit of ts-rest: method, path,
 * permission, request schemas and responses by status. The service registers its routes
 * from it and the OpenAPI document is generated from it. The console calls each endpoint
 * through the part of the table that defines it (`config-endpoints.ts`, …), so that a
 * part's schemas load with the pages that call it, and takes only types from here.
 */
import type { z } from './zod';
import { apiKeyEndpoints } from './api-key-endpoints';
import { auditEndpoints } from './audit-endpoints';
import { configEndpoints } from './config-endpoints';
import { deliveryEndpoints } from './delivery-endpoints';
import type { Endpoint } from './endpoint-kit';
import { environmentEndpoints } from './environment-endpoints';
import { experimentEndpoints } from './experiment-endpoints';
import { peopleEndpoints } from './people-endpoints';
import { reviewEndpoints } from './review-endpoints';
import { signInEndpoints } from './sign-in-endpoints';
import { statusEndpoints } from './status-endpoints';
import { webhookEndpoints } from './webhook-endpoints';

export { permissionForEdit } from './config-endpoints';
export { permissionForReview } from './review-endpoints';

export {
  API_BASE_PATH,
  buildPath,
  MAX_BODY_BYTES,
  MAX_CONFIG_YAML_BYTES,
  permissionOf,
  toFastifyPath,
  type BodyPermission,
  type Endpoint,
  type EndpointTag,
  type HttpMethod,
  type ProblemStatus,
} from './endpoint-kit';

export const contract = {
  ...statusEndpoints,
  ...configEndpoints,
  ...reviewEndpoints,
  ...apiKeyEndpoints,
  ...auditEndpoints,
  ...deliveryEndpoints,
  ...webhookEndpoints,
  ...signInEndpoints,
  ...peopleEndpoints,
  ...environmentEndpoints,
  ...experimentEndpoints,
} as const satisfies Record<string, Endpoint>;

export type Contract = typeof contract;
export type EndpointName = keyof Contract;
export const ENDPOINT_NAMES = Object.keys(contract) as EndpointName[];

type SchemaOr<T, Else> = T extends z.ZodMiniType ? T : Else;

/** What a client sends as the body of an endpoint (undefined: no body). */
export type RequestBodyOf<E extends Endpoint> = z.input<SchemaOr<E['body'], z.ZodMiniUndefined>>;
/** Path parameters of an endpoint. */
export type ParamsOf<E extends Endpoint> = z.input<
  SchemaOr<E['params'], z.ZodMiniObject<Record<never, never>>>
>;
/** Query parameters of an endpoint. */
export type QueryOf<E extends Endpoint> = z.input<
  SchemaOr<E['query'], z.ZodMiniObject<Record<never, never>>>
>;
/** The 2xx statuses of an endpoint, or the redirect a browser's sign-in answers with. */
export type SuccessStatusOf<E extends Endpoint> = Extract<
  keyof E['responses'],
  200 | 201 | 202 | 204 | 302
>;
/** The parsed body of one response (undefined for 204). */
export type ResponseBodyOf<
  E extends Endpoint,
  S extends keyof E['responses'] = SuccessStatusOf<E>,
> = E['responses'][S] extends z.ZodMiniType ? z.output<E['responses'][S]> : undefined;

/** An endpoint as a part of the table gives it (`namedEndpoints`): with its name in the table. */
export interface NamedEndpoint extends Endpoint {
  readonly name: EndpointName;
}
