/**
 * The OpenAPI 3.1 document of the contract, generated from `contract` and its zod schemas
 * with zod's own `z.toJSONSchema`: no schema here is written by hand, so the document cannot
 * drift from what the server validates.
 *
 * How: all request schemas go into one wrapper object converted with `io: 'input'`, all
 * response schemas into another with `io: 'output'`. zod lifts every schema that has a
 * `id` (registered in `z.globalRegistry`) into `$defs`; those become `components.schemas`, and each wrapper property is
 * the schema of one body, parameter set or header.
 */
import { z } from './zod';
import { API_KEY_PREFIX } from './api-keys';
import { ETAG_PATTERN } from './configs';
import { API_BASE_PATH, contract, type Endpoint, type EndpointName } from './endpoints';
import { PROBLEM_CONTENT_TYPE } from './problem';

type JsonSchema = z.core.JSONSchema.JSONSchema;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
  'x-permission'?: string;
  /** For a permission that depends on the body: each one, and when it applies. */
  'x-permission-by-body'?: { permission: string; when: string }[];
  'x-seed': boolean;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    securitySchemes: Record<
      string,
      | { type: 'http'; scheme: 'bearer'; description: string }
      | { type: 'apiKey'; in: 'cookie'; name: string; description: string }
    >;
  };
}

const JSON_CONTENT_TYPE = 'application/json';
const SECURITY_SCHEME = 'bearerAuth';
const SESSION_SCHEME = 'sessionCookie';

/** Response headers, by their OpenAPI name. */
const responseHeaders = {
  ETag: {
    description:
      'Names the content of this response: for a config its id and revision, "cfg_01J0…:7"; send it back in If-None-Match (304 when unchanged) or, for a config, If-Match',
    schema: z.string().check(z.regex(new RegExp(ETAG_PATTERN))),
  },
  'Retry-After': {
    description: 'Seconds to wait before the next request',
    schema: z.string().check(z.regex(/^[0-9]+$/)),
  },
  Link: {
    description:
      'The next page of this list: <URL>; rel="next", absent on the last page. Follow it as it is; its cursor is opaque',
    schema: z.string(),
  },
  Location: {
    description:
      'Where the browser goes: the identity provider, or back to the console (its sign-in page naming the reason when signing in failed)',
    schema: z.string(),
  },
  'Set-Cookie': {
    description: 'The session cookie (HttpOnly, SameSite=Strict; __Host-sid over HTTPS)',
    schema: z.string(),
  },
  'WWW-Authenticate': {
    description: 'Bearer realm="provisioning", error="invalid_token" (RFC 6750)',
    schema: z.string(),
  },
} as const;
type ResponseHeaderName = keyof typeof responseHeaders;

const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  302: 'A redirect (Location)',
  304: 'Not modified: the copy the If-None-Match names is current (no body)',
  400: 'The request is malformed (errors name what is wrong)',
  401: 'The API key or session is missing, malformed, unknown, revoked or expired',
  403: 'The API key or role lacks the permission, or a session request failed the CSRF checks',
  404: "Not found in the caller's account",
  409: 'The operation cannot apply now, or its result would be invalid (validation)',
  412: 'If-Match does not match the revision of the config',
  413: 'The body is over 1 MiB',
  415: 'The body is not application/json',
  422: 'An operation names something that does not exist',
  429: 'Over the rate limit',
  503: 'The database does not answer; retry after the Retry-After seconds',
};

const TAGS: Record<Endpoint['tag'], string> = {
  auth: 'Who the caller is',
  configs: 'Configs: edit, read, publish, roll back',
  reviews: 'Review of drafts before they are published',
  account: "The account's policy",
  'api-keys': "The account's API keys",
  'client-keys': "Client keys: apps' read-only access to their live view",
  delivery: 'What apps read with a client key: their view, assignments, a stream of views',
  webhooks: 'Signed POSTs to your endpoints when configs are published or A/B tests change',
  audit: 'Who changed what, when and from where: read by page or exported for a SIEM',
  people: 'Signing in, sessions, members, invitations and the sign-in settings',
  environments:
    "The organization's accounts as environments, promotion between them, scheduled changes",
  experiments: 'Experiment results: events from apps, metrics, and the results of each A/B test',
  meta: 'Probes and this document',
};

/** "if-match" -> "If-Match". */
function headerName(lowerCase: string): string {
  return lowerCase.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
  );
}

/** Converts a wrapper of named schemas; throws on anything JSON Schema cannot say. */
function convert(shape: Record<string, z.ZodMiniType>, io: 'input' | 'output') {
  const json = z.toJSONSchema(z.object(shape), { io, target: 'draft-2020-12' });
  return { properties: json.properties ?? {}, defs: json.$defs ?? {} };
}

/** `#/$defs/X` -> `#/components/schemas/X`, everywhere in a generated schema. */
function relocateRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(relocateRefs) as T;
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    result[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? `#/components/schemas/${inner.slice('#/$defs/'.length)}`
        : relocateRefs(inner);
  }
  return result as T;
}

/** A component stands alone in the document: no `$schema` or `$id` of its own. */
function asComponent(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = relocateRefs(schema);
  return rest;
}

function asSchema(schema: z.core.JSONSchema._JSONSchema | undefined, where: string): JsonSchema {
  if (schema === undefined || typeof schema === 'boolean') {
    throw new Error(`openapi: no schema generated for ${where}`);
  }
  return relocateRefs(schema);
}

const key = {
  params: (name: EndpointName) => `${name} params`,
  query: (name: EndpointName) => `${name} query`,
  headers: (name: EndpointName) => `${name} headers`,
  body: (name: EndpointName) => `${name} body`,
  response: (name: EndpointName, status: string) => `${name} ${status}`,
  header: (name: ResponseHeaderName) => `header ${name}`,
};

const entries = Object.entries(contract) as [EndpointName, Endpoint][];

function generateSchemas() {
  const inputs: Record<string, z.ZodMiniType> = {};
  const outputs: Record<string, z.ZodMiniType> = {};
  for (const [name, endpoint] of entries) {
    if (endpoint.params) inputs[key.params(name)] = endpoint.params;
    if (endpoint.query) inputs[key.query(name)] = endpoint.query;
    if (endpoint.headers) inputs[key.headers(name)] = endpoint.headers;
    if (endpoint.body) inputs[key.body(name)] = endpoint.body;
    for (const [status, schema] of Object.entries(endpoint.responses)) {
      if (schema) outputs[key.response(name, status)] = schema;
    }
  }
  for (const [name, header] of Object.entries(responseHeaders)) {
    outputs[key.header(name as ResponseHeaderName)] = header.schema;
  }
  const input = convert(inputs, 'input');
  const output = convert(outputs, 'output');

  // A named schema used by requests and responses must read the same both ways, or one
  // component name would stand for two shapes.
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of [...Object.entries(input.defs), ...Object.entries(output.defs)]) {
    const component = asComponent(schema);
    const earlier = components[id];
    if (earlier && JSON.stringify(earlier) !== JSON.stringify(component)) {
      throw new Error(`openapi: schema ${id} differs between requests and responses`);
    }
    components[id] = component;
  }
  const sorted = Object.fromEntries(
    Object.entries(components).sort(([a], [b]) => a.localeCompare(b)),
  );
  return { properties: { ...input.properties, ...output.properties }, components: sorted };
}

/** Parameters from a generated object schema: one per property. */
function parametersOf(schema: JsonSchema, location: OpenApiParameter['in']): OpenApiParameter[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const propertySchema = asSchema(property, `${location} parameter ${name}`);
    const { description, ...rest } = propertySchema;
    return {
      name: location === 'header' ? headerName(name) : name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function responseHeadersOf(endpoint: Endpoint, status: number): ResponseHeaderName[] {
  if (status === 401) return ['WWW-Authenticate'];
  if (status === 302) return ['Location'];
  if (status === 429 || status === 503) return ['Retry-After'];
  const success = status >= 200 && status < 300;
  return [
    ...(endpoint.etag && (success || status === 304) ? (['ETag'] as const) : []),
    ...(endpoint.paged && success ? (['Link'] as const) : []),
  ];
}

export interface OpenApiOptions {
  /** `info.version`; default 1.0.0. */
  version?: string;
  /** The server URL; default the API's base path, relative to wherever the document is served. */
  serverUrl?: string;
}

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const { properties, components } = generateSchemas();
  const schemaAt = (name: string) => asSchema(properties[name], name);

  const paths: OpenApiDocument['paths'] = {};
  for (const [name, endpoint] of entries) {
    const parameters = [
      ...(endpoint.params ? parametersOf(schemaAt(key.params(name)), 'path') : []),
      ...(endpoint.query ? parametersOf(schemaAt(key.query(name)), 'query') : []),
      ...(endpoint.headers ? parametersOf(schemaAt(key.headers(name)), 'header') : []),
    ];
    const responses: Record<string, OpenApiResponse> = {};
    for (const [statusText, schema] of Object.entries(endpoint.responses)) {
      if (schema === undefined) continue;
      const status = Number(statusText);
      const headers = responseHeadersOf(endpoint, status);
      const stream = status < 300 ? endpoint.stream : undefined;
      const contentType = status >= 400 ? PROBLEM_CONTENT_TYPE : (stream ?? JSON_CONTENT_TYPE);
      // A stream's body is text; the schema says what each event's data (or line) is.
      const bodySchema = (): JsonSchema =>
        stream
          ? {
              type: 'string',
              description:
                stream === 'text/event-stream'
                  ? 'Server-Sent Events; the data of each event is this JSON'
                  : 'One JSON value a line (NDJSON), each this JSON',
              contentMediaType: JSON_CONTENT_TYPE,
              contentSchema: schemaAt(key.response(name, statusText)),
            }
          : schemaAt(key.response(name, statusText));
      responses[statusText] = {
        description: STATUS_DESCRIPTIONS[status] ?? `Status ${status}`,
        ...(headers.length > 0
          ? {
              headers: Object.fromEntries(
                headers.map((header) => [header, { $ref: `#/components/headers/${header}` }]),
              ),
            }
          : {}),
        ...(schema ? { content: { [contentType]: { schema: bodySchema() } } } : {}),
      };
    }
    // Unknown routes (404) and 5xx carry a problem body too.
    responses.default = {
      description: 'Any other failure',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
    };

    const { permission } = endpoint;
    const permissionNote =
      permission === null
        ? ''
        : typeof permission === 'string'
          ? `Requires the permission ${permission}.`
          : `Requires the permission ${permission.cases.map((c) => `${c.permission} when ${c.when}`).join('; ')} (checked once the body is read).`;
    const description = [endpoint.description, permissionNote].filter(Boolean).join(' ');
    const operation: OpenApiOperation = {
      operationId: name,
      summary: endpoint.summary,
      ...(description ? { description } : {}),
      tags: [endpoint.tag],
      // A client key travels in the path: no Authorization header is read.
      ...(endpoint.auth !== 'signed_in' ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(endpoint.body
        ? {
            requestBody: {
              required: endpoint.bodyRequired ?? true,
              content: { [JSON_CONTENT_TYPE]: { schema: schemaAt(key.body(name)) } },
            },
          }
        : {}),
      responses,
      ...(typeof permission === 'string' ? { 'x-permission': permission } : {}),
      ...(permission !== null && typeof permission !== 'string'
        ? { 'x-permission-by-body': permission.cases.map((c) => ({ ...c })) }
        : {}),
      'x-seed': endpoint.seed,
    };
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method.toLowerCase()]: operation };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Provisioning Service',
      version: options.version ?? '1.0.0',
      description:
        'Edit account configs with typed operations, publish them and run A/B tests. Every non-2xx response is application/problem+json (RFC 9457).',
    },
    servers: [{ url: options.serverUrl ?? API_BASE_PATH }],
    // Either one: a key for scripts, the console's session cookie for people.
    security: [{ [SECURITY_SCHEME]: [] }, { [SESSION_SCHEME]: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components,
      headers: Object.fromEntries(
        Object.entries(responseHeaders).map(([name, header]) => [
          name,
          {
            description: header.description,
            schema: schemaAt(key.header(name as ResponseHeaderName)),
          },
        ]),
      ),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (${API_KEY_PREFIX}…) from the console's account settings`,
        },
        [SESSION_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: '__Host-sid',
          description:
            "The console's session (sid over plain HTTP); a change made with it also sends X-Requested-With: console",
        },
      },
    },
  };
}
