/**
 * One webhook attempt over node:http(s): the URL is checked again, its host resolved once and
 * every address checked (no SSRF), and the connection made to the checked address, so DNS
 * cannot answer differently between the check and the connect. Redirects are not followed;
 * the answer is read only up to a small limit; the whole attempt has one deadline.
 */
import { Resolver as DnsResolver } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refuseAddress, refuseWebhookUrl, type UrlPolicy } from './url-policy';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to all its addresses. */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/** How long one query waits for the name server, and how many times it is sent. */
export const DNS_TIMEOUT_MS = 2_000;
export const DNS_TRIES = 2;

const LOOPBACK: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * Queries the name servers with c-ares (`resolve4`/`resolve6`), never `dns.lookup`, which
 * blocks one of libuv's 4 threads per lookup: a slow name server would stall the file and
 * compression work of API requests. Each query is bounded by DNS_TIMEOUT_MS × DNS_TRIES.
 * `localhost` is loopback (RFC 6761) without asking anyone.
 */
export function nameServerResolver(servers?: readonly string[]): Resolver {
  const dns = new DnsResolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (servers) dns.setServers([...servers]);
  return async (host) => {
    const name = host.toLowerCase();
    if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK;
    const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
    return [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
  };
}

export const systemResolver: Resolver = nameServerResolver();

export interface HttpPostSettings {
  readonly policy: UrlPolicy;
  /** The whole attempt: resolve, connect, send, the answer's head and excerpt. */
  readonly timeoutMs: number;
  /** The answer is read up to this many bytes, then the connection is dropped. */
  readonly maxAnswerBytes: number;
  readonly userAgent: string;
  readonly resolve: Resolver;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_ANSWER_BYTES = 4096;
export const WEBHOOK_USER_AGENT = 'ProvisioningConsole-Webhooks/1';

export interface PostOutcome {
  /** The answer's status; null when there was none (refused, unreachable, timed out). */
  readonly status: number | null;
  /** Why the attempt failed (short, for the delivery record); null when it got a 2xx. */
  readonly error: string | null;
  /** The start of the answer's body (at most maxAnswerBytes), for the record. */
  readonly excerpt: string;
}

function failed(error: string, status: number | null = null, excerpt = ''): PostOutcome {
  return { status, error, excerpt };
}

/** Checks the URL and every address its host resolves to; the address to connect to. */
async function checkedAddress(
  url: URL,
  settings: HttpPostSettings,
): Promise<ResolvedAddress | string> {
  const refusal = refuseWebhookUrl(url.href, settings.policy);
  if (refusal !== undefined) return `URL ${refusal}`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses =
    family !== 0 ? [{ address: host, family }] : await settings.resolve(host).catch(() => []);
  if (addresses.length === 0) return `${host} does not resolve`;
  for (const each of addresses) {
    const refused = refuseAddress(each.address, url.protocol, settings.policy);
    if (refused !== undefined) return `${host} ${refused}`;
  }
  // Checked above, so the array is not empty.
  return addresses[0] as ResolvedAddress;
}

/** A lookup for the request that answers the already-checked address and nothing else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if (options.all === true) {
      callback(null, [{ address: pinned.address, family: pinned.family }]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}

/** Reads at most `limit` bytes of the answer, then stops. */
function readExcerpt(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8', 0, limit));
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) {
        // Enough: the rest is never read, and the socket goes with it.
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}

/**
 * POSTs `body` to `target` with `headers` (the signature), and says what came of it; never
 * throws. `signal` aborts it (the sender's shutdown).
 */
export async function postWebhook(
  target: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  settings: HttpPostSettings,
  signal?: AbortSignal,
): Promise<PostOutcome> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return failed('URL is not an absolute URL');
  }
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const abort = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const timedOut = () =>
    failed(
      deadline.aborted
        ? `no answer within ${settings.timeoutMs} ms`
        : 'abandoned: the service is stopping',
    );

  const checked = await Promise.race([
    checkedAddress(url, settings),
    new Promise<undefined>((resolve) => {
      if (abort.aborted) resolve(undefined);
      abort.addEventListener('abort', () => resolve(undefined), { once: true });
    }),
  ]);
  if (checked === undefined) return timedOut();
  if (typeof checked === 'string') return failed(checked);

  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = send(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': settings.userAgent,
        },
        lookup: pinnedLookup(checked),
        // A fresh connection per attempt: a pooled socket could have been opened to an
        // address checked under another resolution.
        agent: false,
        signal: abort,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        void readExcerpt(response, settings.maxAnswerBytes).then((excerpt) => {
          if (abort.aborted && !settled) return settle(timedOut());
          if (status >= 200 && status < 300) return settle({ status, error: null, excerpt });
          const error =
            status >= 300 && status < 400
              ? `answered ${status} (redirects are not followed)`
              : `answered ${status}`;
          settle(failed(error, status, excerpt));
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (abort.aborted) return settle(timedOut());
      settle(failed(`could not send: ${error.code ?? error.message}`));
    });
    request.end(body);
  });
}
