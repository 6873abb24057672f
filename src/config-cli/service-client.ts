/**
 * The service over HTTP, as the config commands call it: the contract's endpoints by name,
 * every answer parsed with the contract's schema for its status. The key comes from the
 * environment or a file, never the command line, where shell history and `ps` would keep it.
 */
import {
  API_BASE_PATH,
  buildPath,
  contract,
  type Contract,
  type EndpointName,
  type ResponseBodyOf,
} from '../contract/endpoints';
import { problemSchema, type Problem } from '../contract/problem';
import { readText, stringOption, type OptionValues } from './arguments';
import { CommandFailed, type CommandIo } from './command-io';

/** The options every command that calls the service takes. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'key-file': { type: 'string' },
} as const;

/** A problem the service answered with (a 4xx or 5xx and its problem body). */
export class ServiceProblem extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
  }
}

export interface CallInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export class ServiceClient {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly key: string,
  ) {
    // The service's base, or its API root: both name the same API.
    const trimmed = baseUrl.replace(/\/+$/, '');
    this.base = trimmed.endsWith(API_BASE_PATH) ? trimmed.slice(0, -API_BASE_PATH.length) : trimmed;
  }

  async call<N extends EndpointName>(
    name: N,
    input: CallInput = {},
  ): Promise<ResponseBodyOf<Contract[N]>> {
    const endpoint = contract[name];
    const url = `${this.base}${API_BASE_PATH}${buildPath(endpoint.path, input.params)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: endpoint.method,
        headers: {
          authorization: `Bearer ${this.key}`,
          accept: 'application/json',
          ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new CommandFailed(`cannot reach ${url}: ${cause ?? String(error)}`);
    }
    const text = await response.text();
    const body = parseJson(text);
    if (!response.ok) {
      const problem = problemSchema.safeParse(body);
      if (!problem.success)
        throw new CommandFailed(
          `${endpoint.method} ${url} answered ${response.status}: ${text.slice(0, 200)}`,
        );
      throw new ServiceProblem(problem.data);
    }
    const schema = (endpoint.responses as Readonly<Record<number, unknown>>)[response.status];
    if (schema === null) return undefined as ResponseBodyOf<Contract[N]>;
    const parsed =
      schema === undefined ? undefined : (schema as typeof problemSchema).safeParse(body);
    if (!parsed?.success)
      throw new CommandFailed(
        `${endpoint.method} ${url} answered ${response.status} with a body the contract does not describe`,
      );
    return parsed.data as ResponseBodyOf<Contract[N]>;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `--url` or PROVISIONING_URL, and the key from `--key-file` or PROVISIONING_API_KEY. */
export function clientFrom(values: OptionValues, io: CommandIo): ServiceClient {
  const url = stringOption(values, 'url') ?? io.env.PROVISIONING_URL;
  if (!url) throw new CommandFailed("set PROVISIONING_URL (or --url) to the service's address");
  if (!/^https?:\/\//.test(url))
    throw new CommandFailed(`the service's address must be an http(s) URL, got "${url}"`);
  const keyFile = stringOption(values, 'key-file');
  const key = keyFile === undefined ? io.env.PROVISIONING_API_KEY : readText(keyFile).trim();
  if (!key)
    throw new CommandFailed(
      keyFile === undefined
        ? 'set PROVISIONING_API_KEY (or --key-file FILE) to an API key'
        : `the key file ${keyFile} is empty`,
    );
  return new ServiceClient(url, key);
}
